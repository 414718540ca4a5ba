"""The API takes exactly the actions of the engine's vocabulary."""

from __future__ import annotations

from games.domain.inputs import ACTIONS
from games.engine.vocabulary import ActionName


def test_the_api_has_one_input_per_action_of_the_vocabulary():
    assert set(ACTIONS) == set(ActionName) and len(ACTIONS) == len(ActionName)
