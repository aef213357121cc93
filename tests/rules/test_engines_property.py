"""Property test of every engine (rules/): a random valid event log of the game's own balls, in any
order of contacts, pocketings and balls leaving the table, is judged or refused with a
TabletrackError in one line; never another exception (a KeyError, an assertion, a crash in the
middle of a match). 000 2 (nine-ball's balls), 002 bola 8 ART 1, 004 (1-15), 002 snooker ART 1.3,
003 (the three carom balls)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from hypothesis_inputs import FAST

from common.errors import TabletrackError
from rules import Game, judge_events
from rules.nine_ball.variants import VARIANTS
from rules.snooker.balls import SNOOKER_BALLS
from tracking.events import BallBall, CushionHit, Event, OffTable, Pocketed, ShotEnd, ShotStart
from tracking.ids import CAROM_BALLS, BallId, Cushion, Pocket

POOL_15 = (BallId.CUE, *(BallId(str(n)) for n in range(1, 16)))


def balls_of(game: Game) -> tuple[BallId, ...]:
    if game.family.value == "carom":
        return CAROM_BALLS
    if game is Game.SNOOKER:
        return tuple(sorted((b for b in SNOOKER_BALLS if b is not BallId.RED), key=lambda b: b.value))
    variant = VARIANTS.get(game)
    return (BallId.CUE, *variant.balls) if variant is not None else POOL_15


@st.composite
def game_logs(draw: st.DrawFn) -> tuple[Game, list[Event]]:
    game = draw(st.sampled_from(list(Game)))
    balls = balls_of(game)
    pockets = game.family.value != "carom"
    cue_choices = [BallId.WHITE, BallId.YELLOW] if not pockets else [BallId.CUE]
    on_table = list(balls)
    events: list[Event] = []
    t, frame = 0.0, 0
    coord = st.floats(min_value=30.0, max_value=1200.0)
    for shot in range(1, draw(st.integers(min_value=1, max_value=4)) + 1):
        cue = draw(st.sampled_from(cue_choices))
        if cue not in on_table:
            on_table.append(cue)  # ball in hand: placed again
        positions = {b: (draw(coord), draw(coord)) for b in on_table}
        events.append(ShotStart(t, frame, shot, 1.0, cue, positions))
        gone: set[BallId] = set()
        for _ in range(draw(st.integers(min_value=0, max_value=6))):
            t += 0.1
            frame += 3
            live = [b for b in on_table if b not in gone]
            if len(live) < 2:
                break
            kind = draw(
                st.sampled_from(("ball", "cushion", "pocket", "off") if pockets else ("ball", "cushion", "off"))
            )
            a = draw(st.sampled_from(live))
            b = draw(st.sampled_from([x for x in live if x is not a]))
            conf = draw(st.sampled_from([1.0, 0.9, 0.4]))
            if kind == "ball":
                events.append(BallBall(t, frame, shot, conf, (a, b), (500.0, 500.0)))
            elif kind == "cushion":
                events.append(CushionHit(t, frame, shot, conf, a, draw(st.sampled_from(list(Cushion))), (500.0, 0.0)))
            elif kind == "pocket":
                events.append(Pocketed(t, frame, shot, conf, a, draw(st.sampled_from(list(Pocket)))))
                gone.add(a)
            else:
                events.append(OffTable(t, frame, shot, conf, a))
                gone.add(a)
        on_table = [b for b in on_table if b not in gone]
        t += 1.0
        frame += 30
        events.append(ShotEnd(t, frame, shot, 1.0, {b: positions[b] for b in on_table}))
        t += 1.0
        frame += 30
    return game, events


@FAST
@given(game_logs())
def test_a_random_valid_log_is_judged_or_refused_in_one_line(case: tuple[Game, list[Event]]) -> None:
    game, events = case
    try:
        calls, _ = judge_events(events, game)
    except TabletrackError as e:
        assert "\n" not in str(e)
        return
    assert [c.shot for c in calls] == sorted({e.shot for e in events})


@FAST
@given(
    st.sampled_from([g for g in Game if g.family.value == "pool"]),
    st.sampled_from([BallId.YELLOW, BallId.RED_1, BallId.WHITE]),
)
def test_a_ball_of_another_game_is_refused_naming_the_shot(game: Game, foreign: BallId) -> None:
    """A ``yellow`` in a nine-ball log was judged "yellow moved, no stroke"; now one line."""
    pos = {BallId.CUE: (500.0, 500.0), BallId("1"): (1900.0, 635.0), foreign: (800.0, 300.0)}
    events: list[Event] = [
        ShotStart(0.0, 0, 1, 1.0, BallId.CUE, pos),
        BallBall(0.5, 15, 1, 1.0, (BallId.CUE, foreign), (800.0, 300.0)),
        ShotEnd(2.0, 60, 1, 1.0, pos),
    ]
    try:
        judge_events(events, game)
    except TabletrackError as e:
        msg = str(e)
        assert msg.startswith("shot 1") and foreign.value in msg and "\n" not in msg, msg
    else:
        raise AssertionError(f"{game.value} judged a shot with the {foreign.value}")
