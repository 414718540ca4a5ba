"""schemathesis hooks for tests/api/test_schemathesis.py (loaded by SCHEMATHESIS_HOOKS): the
routes that take a game code get one of the prepared games' codes (STAKED_FUZZ_CODES: a lobby,
a game in Mingling, a finished one) or, as often, the generated code."""

from __future__ import annotations

import os
import re

import schemathesis
from hypothesis import strategies as st

# Set by the test (this module runs in schemathesis's own process, without Django).
CODES = [code for code in os.environ.get("STAKED_FUZZ_CODES", "").split(",") if code]
PATTERN = os.environ.get("STAKED_FUZZ_CODE_PATTERN", "[A-Z0-9]{6}")


@schemathesis.hook
def flatmap_path_parameters(context, path_parameters):
    """A well-formed generated code becomes a real game's code 3 times out of 4; a malformed
    one (a negative case) is left as it is."""
    code = (path_parameters or {}).get("code")
    if not CODES or not isinstance(code, str) or not re.fullmatch(PATTERN, code):
        return st.just(path_parameters)
    return st.sampled_from([*CODES, code]).map(lambda pick: {**path_parameters, "code": pick})
