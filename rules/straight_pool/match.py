"""The 14.1 match bookkeeping around a shot's :class:`Decision`: pure transitions of
:class:`StraightPoolState`.

- Before a shot: the incoming player's choice when the referee input did not give it (accept the
  table, or the balls racked and the offender breaking: 004 art. 6, 7.5, 12), read from the shot's
  start positions; the re-rack of 004 art. 7.3 when the 15th ball or the cue ball was in the
  rack's way (art. 7.6), read the same way; an inning begins when a player comes to the table.
- After a shot: the score (negative allowed, art. 13), the run and high run, the successive-foul
  record (art. 12: a counted foul adds one, the third clears it, any legal shot clears it; a
  breaking violation leaves it, art. 6), the balls left (scored balls leave, spotted ones stay), the
  re-rack when one ball or none is left after a scoring shot (art. 7.3), the end of the inning,
  who comes to the table and with what (ball in hand behind the head string after a scratch,
  art. 10, or an accepted intentional foul, art. 7.5; a re-break from the kitchen), and the end of
  the match at the target (art. 1).

Reading a choice from the table: all 15 object balls at the next shot's start, and some of them
away from where they rested (or fewer than 15 rested), means the balls were racked again; else the
table was accepted. When every ball stands where it rested both readings fit: the call is flagged.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

from rules.core.table import PointMm
from rules.straight_pool.decide import Decision, Kind
from rules.straight_pool.head_string import moved
from rules.straight_pool.state import (
    OBJECT_BALLS,
    Choice,
    InningRecord,
    Option,
    PendingChoice,
    RackPending,
    StraightPoolState,
)
from tracking.events import ShotStart
from tracking.ids import BallId

__all__ = ["News", "apply_choice", "resolve_pending", "begin_inning", "option_of", "advance"]


@dataclass(frozen=True)
class News:
    """What a transition tells the call: sentences for the reason, doubts for review, the turn."""

    sentences: tuple[str, ...] = ()
    doubts: tuple[str, ...] = ()
    turn_over: bool = False
    option: Option | None = None
    choice: Choice | None = None
    rerack: str | None = None  # "14", "15": a re-rack after this shot


def _objects(positions: Mapping[BallId, PointMm]) -> frozenset[BallId]:
    return frozenset(b for b in positions if b in OBJECT_BALLS)


def apply_choice(
    st: StraightPoolState, option: Option, choice: Choice, chooser: int, offender: int, scratch: bool
) -> tuple[StraightPoolState, str]:
    """The state after ``chooser``'s ``choice`` (the inning of the offender is already closed)."""
    names = st.names
    if choice is Choice.RERACK:
        verb = "break again" if option is Option.BREAKING_VIOLATION else "break"
        return (
            replace(
                st,
                at_table=offender,
                opening_break=True,
                ball_in_hand=True,
                balls=OBJECT_BALLS,
                rack=st.rack + 1,
                pending_choice=None,
                in_inning=False,
            ),
            f"{names[chooser]} has the 15 balls racked and {names[offender]} must {verb} under the opening "
            f"break requirements ({option.article})",
        )
    in_hand = scratch or option is Option.INTENTIONAL_FOUL
    return (
        replace(st, at_table=chooser, opening_break=False, ball_in_hand=in_hand, pending_choice=None, in_inning=False),
        f"{names[chooser]} accepts the table"
        + (" with ball in hand behind the head string" if in_hand else "")
        + f" ({option.article}"
        + ("; 004 art. 10)" if scratch and option is not Option.INTENTIONAL_FOUL else ")"),
    )


def resolve_pending(st: StraightPoolState, start: ShotStart | None) -> tuple[StraightPoolState, News]:
    """Settle what the previous shot left open, from this shot's start (see the module docstring)."""
    sentences: list[str] = []
    doubts: list[str] = []
    pos = dict(start.positions) if start is not None else {}
    pc = st.pending_choice
    if pc is not None:
        seen, last = _objects(pos), _objects(st.last_positions)
        if not pos:
            choice = Choice.ACCEPT_TABLE
            doubts.append(
                f"no choice was given after the {pc.option.value.replace('_', ' ')} and the log shows no "
                "positions: the table is taken as accepted"
            )
            how = "taken as"
        else:
            shifted = any(moved(st.last_positions, pos, b) for b in seen & last)
            racked = len(seen) == 15 and bool(last) and (shifted or len(last | pc.spotted) < 15)
            choice = Choice.RERACK if racked else Choice.ACCEPT_TABLE
            how = "as the shot start shows:"
            still = not any(moved(pc.before, st.last_positions, b) for b in last)
            if len(seen) == 15 and not racked and (still or not last):
                doubts.append(
                    "no choice was given and "
                    + (
                        "the shot that gave it moved no ball: racked again, the balls would stand as they are"
                        if last
                        else "the log shows no resting positions before this shot"
                    )
                    + "; the table is taken as accepted"
                )
        st, text = apply_choice(st, pc.option, choice, pc.chooser, pc.offender, pc.scratch)
        sentences.append(f"No choice given; {how} {text}")
    rp = st.rack_pending
    if rp is not None:
        st, text, doubt = _read_rack(st, rp, pos)
        sentences.append(text)
        doubts.extend(doubt)
    return st, News(sentences=tuple(sentences), doubts=tuple(doubts))


def _read_rack(
    st: StraightPoolState, rp: RackPending, pos: Mapping[BallId, PointMm]
) -> tuple[StraightPoolState, str, list[str]]:
    """004 art. 7.6: where the 15th ball and the cue ball went, from the shot start."""
    geo = st.geometry
    cue = BallId.CUE
    if not pos:
        return (
            replace(st, rack_pending=None, ball_in_hand=False),
            "The log shows no positions after the re-rack: the 15th ball and the cue ball are taken as they lay "
            "(004 art. 7.6)",
            [],
        )
    parts: list[str] = []
    if rp.fifteenth is None:
        parts.append("all 15 balls were racked, the 15th having gone in with the 14th")
    else:
        f = rp.fifteenth
        fm = moved({f: rp.fifteenth_at} if rp.fifteenth_at else {}, pos, f)
        if fm:
            spot = geo.spot_of(pos[f])
            where = spot.replace("_", " ") if spot else f"x = {pos[f][0]:.0f} mm"
            parts.append(
                f"the 15th ball (the {f.value}) was in the rack's way and stands on the {where}"
                + (", the apex of a 15-ball rack" if spot == "foot_spot" else "")
            )
        elif fm is False:
            parts.append(f"the 15th ball (the {f.value}) stays where it lay")
    cm = moved({cue: rp.cue_at} if rp.cue_at else {}, pos, cue)
    in_hand = False
    if cm:
        spot = geo.spot_of(pos[cue])
        if spot in ("head_spot", "centre_spot"):
            parts.append(f"the cue ball was in the rack's way and stands on the {spot.replace('_', ' ')}")
        else:
            in_hand = True
            parts.append("the cue ball was in the rack's way: ball in hand behind the head string")
    elif cm is False:
        parts.append("the cue ball stays where it lay")
    text = (
        "Re-rack: " + ("; ".join(parts) if parts else "the log does not show where the balls were") + " (004 art. 7.6)"
    )
    return replace(st, rack_pending=None, ball_in_hand=in_hand), text, []


def begin_inning(st: StraightPoolState) -> StraightPoolState:
    """The player at the table starts an inning unless he is in one."""
    if st.in_inning:
        return st
    p = st.at_table
    st = st.with_player(p, innings=st.players[p].innings + 1)
    return replace(st, in_inning=True, run=0, inning_points=0)


def option_of(d: Decision) -> Option | None:
    """The incoming player's option after the shot (accept the table or have the balls racked for
    the offender): after a breaking violation (004 art. 6), an intentional foul (7.5) or a third
    successive foul (12; not under the frozen-ball rule, 7.2 note, which re-racks anyway)."""
    if d.kind is Kind.BREAKING_VIOLATION:
        return Option.BREAKING_VIOLATION
    if d.kind is Kind.FOUL and d.intentional:
        return Option.INTENTIONAL_FOUL
    if d.kind is Kind.FOUL and d.third_foul and not d.frozen_rule:
        return Option.THIRD_FOUL
    return None


def _foul_record(name: str, cf: int, d: Decision, sentences: list[str]) -> int:
    """004 art. 12: a counted foul adds to the successive fouls (the third clears them, its penalty
    taken); a legal shot clears them; a breaking violation (art. 6) leaves them. Returns the new
    count; says what changed."""
    if d.counted_foul:
        cf = 0 if d.third_foul else cf + 1
    elif d.kind is not Kind.BREAKING_VIOLATION:
        if cf:
            sentences.append(f"{name}'s foul record is cleared by a legal shot (004 art. 12)")
        cf = 0
    if d.counted_foul:
        if d.third_foul:
            sentences.append(f"Three successive fouls: {name}'s foul record is cleared (004 art. 12)")
        elif cf == 1:
            sentences.append(f"{name} is on one foul (004 art. 12)")
        else:
            sentences.append(
                f"Warning: {name} is on two fouls; a third successive foul costs 15 more points (004 art. 12)"
            )
    return cf


def _pot_continues(
    st: StraightPoolState,
    balls: frozenset[BallId],
    positions_after: Mapping[BallId, PointMm],
    cue: BallId,
    sentences: list[str],
) -> tuple[StraightPoolState, News]:
    """004 art. 7.1: a legal pot keeps the table; 7.3, 7.6: with one ball (or none) left the 14
    (or 15) are racked and the shooter continues."""
    name = st.players[st.at_table].name
    st = replace(st, opening_break=False, ball_in_hand=False)
    rerack = None
    if len(balls) <= 1:
        rest = next(iter(balls)) if balls else None
        rp = RackPending(rest, positions_after.get(rest) if rest else None, positions_after.get(cue))
        st = replace(st, balls=OBJECT_BALLS, rack=st.rack + 1, rack_pending=rp)
        if rest is not None:
            sentences.append(
                f"The 14th ball of the rack is down: the 14 are racked with the apex spot empty, the "
                f"15th ball (the {rest.value}) and the cue ball stay; {name} continues (004 art. 7.3)"
            )
            rerack = "14"
        else:
            sentences.append(f"No ball is left: all 15 are racked and {name} continues (004 art. 7.3, 7.6)")
            rerack = "15"
    return st, News(tuple(sentences), turn_over=False, rerack=rerack)


def _inning_over(
    st: StraightPoolState,
    d: Decision,
    choice: Choice | None,
    positions_before: Mapping[BallId, PointMm],
    sentences: list[str],
) -> tuple[StraightPoolState, News]:
    """The inning ends (a miss, safety, foul or breaking violation): the frozen-ball rule re-racks
    for the offender (004 art. 7.2 note); an option (art. 6, 7.5, 12) is applied or left pending;
    else the opponent plays, with ball in hand behind the head string after a scratch (art. 10)
    or from where the cue ball lies after another foul (art. 11)."""
    p, q, names = st.at_table, 1 - st.at_table, st.names
    name = st.players[p].name
    ended = {
        Kind.MISS: "miss",
        Kind.SAFETY: "safety",
        Kind.FOUL: "foul",
        Kind.BREAKING_VIOLATION: "breaking violation",
    }[d.kind]
    st = _close_inning(st, ended)
    option = option_of(d)
    if d.frozen_rule:
        st = replace(st, at_table=p, opening_break=True, ball_in_hand=True, balls=OBJECT_BALLS, rack=st.rack + 1)
        sentences.append(f"All 15 balls are racked and {name} breaks as at the start of the match (004 art. 7.2 note)")
        return st, News(tuple(sentences), turn_over=True, rerack="15")
    if option is not None:
        if choice is None:
            in_hand = d.scratch or option is Option.INTENTIONAL_FOUL
            st = replace(
                st,
                at_table=q,
                opening_break=False,
                ball_in_hand=in_hand,
                pending_choice=PendingChoice(option, q, p, d.scratch, frozenset(d.spotted), dict(positions_before)),
            )
            sentences.append(
                f"{names[q]} may accept the table or have the 15 balls racked for {name} to break "
                f"({option.article}); no choice given: the next shot's start will tell"
            )
            return st, News(tuple(sentences), turn_over=True, option=option)
        st, text = apply_choice(st, option, choice, q, p, d.scratch)
        sentences.append(text[0].upper() + text[1:])
        return st, News(
            tuple(sentences),
            turn_over=True,
            option=option,
            choice=choice,
            rerack="15" if choice is Choice.RERACK else None,
        )
    st = replace(st, at_table=q, opening_break=False, ball_in_hand=d.scratch)
    if d.scratch:
        sentences.append(f"{names[q]} has ball in hand behind the head string (004 art. 10)")
    elif d.kind is Kind.FOUL:
        sentences.append(f"{names[q]} takes the cue ball where it lies (004 art. 11)")
    return st, News(tuple(sentences), turn_over=True)


def advance(
    st: StraightPoolState,
    d: Decision,
    choice: Choice | None,
    positions_before: Mapping[BallId, PointMm],
    positions_after: Mapping[BallId, PointMm],
    cue: BallId,
) -> tuple[StraightPoolState, News]:
    """The state after the shot decided ``d`` (``st``: before it, inning begun); ``choice``: the
    incoming player's, where the shot gives one: the score, run and foul record (004 art. 12),
    then the match won at the target (art. 1), a pot that keeps the table (art. 7), or the inning
    over."""
    p = st.at_table
    me = st.players[p]
    sentences: list[str] = []
    score = me.score + d.points
    run = st.run + len(d.scored)
    cf = _foul_record(me.name, me.consecutive_fouls, d, sentences)
    st = st.with_player(
        p,
        score=score,
        high_run=max(me.high_run, run),
        consecutive_fouls=cf,
        fouls=me.fouls + (1 if d.counted_foul else 0),
        breaking_violations=me.breaking_violations + (1 if d.kind is Kind.BREAKING_VIOLATION else 0),
        balls=me.balls + len(d.scored),
    )
    assert st.balls is not None
    balls = st.balls - frozenset(d.scored)
    st = replace(
        st,
        run=run,
        inning_points=st.inning_points + d.points,
        balls=balls,
        last_positions=dict(positions_after),
        shots=st.shots + 1,
    )

    if st.target is not None and d.points > 0 and score >= st.target:
        sentences.append(f"{me.name} reaches {score} of {st.target} and wins the match (004 art. 1)")
        st = _close_inning(st, "won the match")
        return replace(st, match_over=True, winner=p), News(tuple(sentences), turn_over=True)
    if d.kind is Kind.POT:
        return _pot_continues(st, balls, positions_after, cue, sentences)
    return _inning_over(st, d, choice, positions_before, sentences)


def _close_inning(st: StraightPoolState, ended: str) -> StraightPoolState:
    p = st.at_table
    rec = InningRecord(
        player=p,
        number=st.players[p].innings,
        balls=st.run,
        points=st.inning_points,
        score=st.players[p].score,
        ended=ended,
    )
    return replace(st, innings_log=st.innings_log + (rec,), in_inning=False, run=0, inning_points=0)
