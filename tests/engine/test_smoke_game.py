"""A first whole round through the test driver, to keep the driver honest."""

from tests.engine.table import Table


def test_r6_1_round_one_most_staked_chooses_an_examiner_and_nobody_dies():
    t = Table("LVHHHH")
    t.mingle(
        {1: "S3 S4 F5", 2: "S3 S4 F5", 3: "S4 S5 F6", 4: "S3 S5 F6", 5: "S3 S6 F4", 6: "S3 S4 F5"}
    )
    assert t.state.phase == "choose_examiner"
    assert t.dining["examined"] == 3
    t.do(3, "choose_examiner", target=1)
    assert all(t.alive(s) for s in range(1, 7))
    assert t.state.round == 2
    assert t.dining["examiner"] == 1
    assert t.dining["alpha_elected"] == 5
    assert t.state.alpha == 5
