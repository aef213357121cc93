"""The hand-written event-log shorthand (tracking/shorthand.py)."""

import pytest

from tracking.events import BallBall, CushionHit, OffTable, Pocketed
from tracking.ids import BallId, Cushion, Pocket
from tracking.shorthand import shorthand_events


def test_every_token_kind() -> None:
    evs, gone = shorthand_events(["1", "foot", "9:left", "9>foot_left@0.4", "2-3~0.01", "off:cue"], BallId.CUE, 3, 10.0)
    assert [type(e) for e in evs] == [BallBall, CushionHit, CushionHit, Pocketed, BallBall, OffTable]
    assert evs[0].balls == (BallId.CUE, BallId.B1) and evs[1].ball is BallId.CUE and evs[1].cushion is Cushion.FOOT
    assert evs[2].ball is BallId.B9 and evs[3].pocket is Pocket.FOOT_LEFT and evs[3].confidence == 0.4
    assert evs[4].t_s == pytest.approx(evs[3].t_s + 0.01) and evs[0].t_s == pytest.approx(10.2)
    assert gone == [BallId.B9, BallId.CUE] and all(e.shot == 3 for e in evs)


def test_a_bad_token_names_the_valid_ids() -> None:
    with pytest.raises(ValueError, match="unknown ball id 'purple'"):
        shorthand_events(["purple"], BallId.CUE, 1, 0.0)
