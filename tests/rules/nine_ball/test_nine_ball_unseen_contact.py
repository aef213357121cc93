"""A call that rests on "the cue ball touched no ball" goes to the referee when object balls were
struck all the same (rules/core/pool_shot.py unseen_first_contact_doubt; issue 13 section 5): on a
pocket table an object ball moves only when struck and every stroke is on the cue ball, so the
camera missed a contact. Nine-ball 000 2.3(e) (break missed the rack) and 000 6.3 (no contact);
the eight-ball and 14.1 engines add the same doubt."""

from __future__ import annotations

import pytest
from nine_ball_builders import a_shot, rack

from rules import engine_for

PLAYERS = ["Ana", "Bea"]


def _judge(game: str, tokens: list[str], balls: list[str], start: dict | None = None):
    eng = engine_for(game)
    inp = eng.parse_input({"players": PLAYERS, "start": start})
    st = eng.initial_state(inp.setup)
    return eng.judge_shot(st, a_shot(tokens, balls), inp.for_shot(1))[0]


MID_9 = {"at_table": "Ana", "balls": ["3", "5", "7", "9"]}


@pytest.mark.parametrize(
    "game, tokens, balls, start, doubt, named",
    [
        # 000 2.3(e): the cue ball to the cushions and nothing else moved: missed the rack, sure
        ("nine-ball", ["foot", "head"], rack(), None, False, ""),
        # 000 2.3(e): no contact of the cue ball seen, yet the 7 and the 8 met: a missed contact
        ("nine-ball", ["foot", "7-8"], rack(), None, True, "7, 8"),
        # 000 6.3: no contact, yet the 5 reached a cushion
        ("nine-ball", ["head", "5:foot"], ["3", "5", "7", "9"], MID_9, True, "5"),
        # 000 6.3: no contact and nothing else moved
        ("nine-ball", ["head"], ["3", "5", "7", "9"], MID_9, False, ""),
        # the first contact seen: no such doubt
        ("nine-ball", ["3", "3:foot"], ["3", "5", "7", "9"], MID_9, False, ""),
    ],
)
def test_no_cue_ball_contact_with_object_balls_struck_needs_review(
    game: str, tokens: list[str], balls: list[str], start: dict | None, doubt: bool, named: str
) -> None:
    call = _judge(game, tokens, balls, start)
    text = call.review_reason or ""
    assert ("no contact of the cue ball was seen" in text) is doubt
    if doubt:
        assert call.needs_review and f"({named})" in text


@pytest.mark.parametrize("game", ["eight-ball", "straight-pool"])
@pytest.mark.parametrize("tokens, doubt", [(["foot", "7-8"], True), (["foot", "head"], False)])
def test_the_other_pool_engines_doubt_alike(game: str, tokens: list[str], doubt: bool) -> None:
    """Eight-ball (002 bola 8: the break must drive balls to the rails, ART 16.1) and 14.1 (004:
    the opening break, a breaking violation) judge a break on which no cue-ball contact was seen;
    with the 7 and the 8 meeting all the same, the call goes to the referee."""
    eng = engine_for(game)
    inp = eng.parse_input({"players": PLAYERS})
    st = eng.initial_state(inp.setup)
    full_rack = [str(i) for i in range(1, 16)]  # both rack the fifteen balls
    call = eng.judge_shot(st, a_shot(tokens, full_rack), inp.for_shot(1))[0]
    assert ("no contact of the cue ball was seen" in (call.review_reason or "")) is doubt
    if doubt:
        assert call.needs_review and "(7, 8)" in (call.review_reason or "")


@pytest.mark.parametrize(
    "tokens, balls, start, doubt",
    [
        # real broadcast (dev Clip12 turned upside down): the break's contacts in the rack missed,
        # the 7 on a cushion at 0.2 s and the 1 and 3 pocketed, the cue ball's first contact seen
        # only seconds later, with the 7: not a "wrong ball first" (000 6.1) to call unasked
        (["7:head", "1>side_right", "3>head_left", "7~2.5"], rack(), None, True),
        # 000 6.1: the cue ball met the 5 first, then the 5 went to the cushion: no doubt
        (["5", "5:foot", "3-5"], ["3", "5", "7", "9"], MID_9, False),
        # an object ball's event a few ms before the cue ball's contact is timing, not a missed
        # contact (a rack's balls meet within milliseconds of the cue ball's contact)
        (["1-2", "1~0.01", "2:foot"], rack(), None, False),
    ],
)
def test_a_first_contact_seen_after_object_balls_moved_needs_review(
    tokens: list[str], balls: list[str], start: dict | None, doubt: bool
) -> None:
    """000 6.1 (the cue ball must first contact the lowest-numbered ball) and 000 2.3 rest on the
    cue ball's first contact: when object balls met a cushion or a pocket before the first contact
    the log shows, the first contact was missed, and the call says so."""
    call = _judge("nine-ball", tokens, balls, start)
    text = call.review_reason or ""
    assert ("its first contact was not seen" in text) is doubt
    if doubt:
        assert call.needs_review and "comes after object balls were struck (1, 3, 7, from 0.20 s)" in text
