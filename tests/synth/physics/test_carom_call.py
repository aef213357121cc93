"""The expected three-cushion call read from truth events (rules 003: art. 2 (a)-(d), 3, 10)."""

from __future__ import annotations

import pytest

from synth.physics.carom_call import CaromCallError, three_cushion_call
from tracking.events import BallBall, CushionHit, ShotEnd, ShotStart
from tracking.ids import BallId, Cushion

W, Y, RD = BallId.WHITE, BallId.YELLOW, BallId.RED
POS = {W: (500.0, 500.0), Y: (1000.0, 700.0), RD: (2000.0, 900.0)}


def _start(frozen=None, cue=W):
    return ShotStart(
        t_s=0.0, frame=0, shot=1, confidence=1.0, cue_ball=cue, positions=POS, frozen_to_cushion=frozen or {}
    )


def _seq(spec: str, frozen=None):
    """Events from a compact spec: 'y' / 'r' = cue (white) hits that ball, 'h','f','l','t'
    (right) = cue-ball cushion, 'Y' = yellow hits the cue ball back, 'o' = object ball cushion."""
    evs = [_start(frozen)]
    cushions = {"h": Cushion.HEAD, "f": Cushion.FOOT, "l": Cushion.LEFT, "t": Cushion.RIGHT}
    for i, ch in enumerate(spec, start=1):
        t = i * 0.1
        if ch == "y":
            evs.append(BallBall(t_s=t, frame=0, shot=1, confidence=1.0, balls=(W, Y), pos_mm=(0.0, 0.0)))
        elif ch == "r":
            evs.append(BallBall(t_s=t, frame=0, shot=1, confidence=1.0, balls=(W, RD), pos_mm=(0.0, 0.0)))
        elif ch == "Y":
            evs.append(BallBall(t_s=t, frame=0, shot=1, confidence=1.0, balls=(Y, W), pos_mm=(0.0, 0.0)))
        elif ch == "o":
            evs.append(
                CushionHit(
                    t_s=t, frame=0, shot=1, confidence=1.0, ball=RD, cushion=Cushion.FOOT, pos_mm=(2809.25, 900.0)
                )
            )
        else:
            evs.append(
                CushionHit(t_s=t, frame=0, shot=1, confidence=1.0, ball=W, cushion=cushions[ch], pos_mm=(0.0, 0.0))
            )
    evs.append(ShotEnd(t_s=len(spec) * 0.1 + 1, frame=0, shot=1, confidence=1.0, positions=POS))
    return evs


@pytest.mark.parametrize(
    "spec,point,pattern,before_second",
    [
        ("yflhr", True, "2a", 3),  # art. 2(a): ball, three cushions, ball
        ("fltyr", True, "2b", 3),  # art. 2(b): three cushions, then both balls
        ("hyflr", True, "2c", 3),  # art. 2(c): cushion, ball, two cushions, ball
        ("hfylr", True, "2d", 3),  # art. 2(d): two cushions, ball, one cushion, ball
        ("yffhr", True, "2a", 3),  # art. 3: the same cushion twice counts twice
        ("yflr", False, None, 2),  # only two cushions before the second ball
        ("yflh", False, None, None),  # one object ball only
        ("yoooflhr", True, "2a", 3),  # object-ball cushions do not count for the cue ball
        ("yrflh", False, None, 0),  # both balls at once, cushions after: no point
    ],
)
def test_art2_cases(spec, point, pattern, before_second):
    c = three_cushion_call(_seq(spec))
    assert c.point is point
    assert c.pattern == pattern
    assert c.cushions_before_second == before_second


def test_margin_is_second_ball_minus_third_cushion_in_ms():
    c = three_cushion_call(_seq("yflhr"))  # third cushion (h) at 0.4 s, red at 0.5 s
    assert c.third_cushion_t_s == pytest.approx(0.4)
    assert c.margin_ms == pytest.approx(100.0)
    miss = three_cushion_call(_seq("yflrh"))  # red at 0.4 s, third cushion at 0.5 s
    assert not miss.point and miss.margin_ms == pytest.approx(-100.0)


def test_kiss_is_a_second_contact_with_the_first_ball():
    c = three_cushion_call(_seq("yfYlhr"))
    assert c.kiss_first_ball and c.point
    assert c.object_balls_hit == (Y, RD)
    assert not three_cushion_call(_seq("yflhr")).kiss_first_ball


def test_art10_first_contact_with_the_frozen_cushion_does_not_count():
    # Cue ball frozen to the left cushion, played into it: that first contact is not an impact.
    c = three_cushion_call(_seq("lyfhr", frozen={W: Cushion.LEFT}))
    assert c.frozen_contact_discounted and not c.point and c.cushions_before_second == 2
    # A later contact with the same cushion counts (art. 10, second sentence).
    c2 = three_cushion_call(_seq("ylfhr", frozen={W: Cushion.LEFT}))
    assert not c2.frozen_contact_discounted and c2.point
    # Frozen to another cushion: nothing is discounted.
    assert three_cushion_call(_seq("lyfhr", frozen={W: Cushion.HEAD})).point


def test_a_shot_must_begin_with_its_start():
    with pytest.raises(CaromCallError, match="ShotStart"):
        three_cushion_call(_seq("yflhr")[1:])
    with pytest.raises(ValueError):
        three_cushion_call([])


def test_meta_form_is_plain_json():
    import json

    d = three_cushion_call(_seq("yflhr")).to_meta()
    assert json.loads(json.dumps(d)) == d
    assert d["object_balls_hit"] == ["yellow", "red"] and d["pattern"] == "2a"
