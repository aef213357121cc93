"""The verdict of one shot from its facts, before the match bookkeeping: pure, so the evidence
review (:mod:`rules.core.evidence`) can re-run it on perturbed events.

In order (000): the break (2.3: the 1 first, then a ball pocketed or four object balls to a rail;
the cue ball missing the rack is 2.3(e)'s own case), the push-out (2.4: 6.2 and 6.3 do not
apply), every other shot (6.1 cue ball pocketed or off, 6.2 lowest ball first, 6.3 a rail after
the contact when nothing drops, 6.5 an object ball off the table), plus the fouls the referee
declares; then what the shot does: the game ball on a legal shot wins (2.5; ten-ball: only when
called), a ball pocketed legally keeps the table (2.5), a foul gives ball in hand (2.7), the game
ball pocketed on a foul, on a push-out or off the table is respotted and the others stay down
(2.6, 6.5; rotation respots every ball of a foul). A ball driven off the table counts as reaching
a rail (002 bola 9 ART 11.6).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Hashable

from rules.nine_ball.fouls import PoolFoul
from rules.nine_ball.inputs import CalledShot, NineBallShotInput
from rules.nine_ball.variants import Variant, number
from rules.core.pool_shot import PoolShotFacts
from tracking.events import Event
from tracking.ids import BallId

BREAK_RAIL_BALLS = 4  # 000 2.3(b): "al menos cuatro bolas numeradas"
TEN_BALL = "WPA ten-ball; 002 overview is silent"


@dataclass(frozen=True)
class ShotContext:
    """What the verdict needs from the state and the referee: the variant, the object balls on
    the table at the start, whether the shot is a break or an announced (allowed) push-out, the
    ten-ball call (given, or ``call_assumed``), a called safety, and the shooter's and the
    opponent's names."""

    variant: Variant
    balls: frozenset[BallId]
    is_break: bool
    push_out: bool
    called: CalledShot | None
    safety: bool
    shooter: str
    opponent: str


@dataclass(frozen=True)
class FoulFound:
    foul: PoolFoul
    text: str  # follows "Foul: "
    articles: str
    basis: tuple[tuple[Event, str], ...] = ()


@dataclass(frozen=True)
class Decision:
    """``fouls``: the fouls (primary first; a missed rack on the break is ``missed_rack`` and not
    among them); ``first_ball``: the ball the cue ball hit first (the lowest one of a split hit);
    ``pocketed`` / ``off_table``: object balls; ``respot``: balls put back on the table;
    ``wins``: the shooter wins the rack; ``continues``: he keeps the table; ``option``: the
    opponent may pass the next shot back; ``points``: rotation's points of the shot; ``called`` /
    ``call_assumed`` / ``call_made``: ten-ball's call; ``reason``: sentences citing the rules;
    ``basis``: the events the verdict rests on; ``summary``: a few words."""

    fouls: tuple[FoulFound, ...]
    missed_rack: bool
    first_ball: BallId | None
    pocketed: tuple[BallId, ...]
    off_table: tuple[BallId, ...]
    respot: tuple[BallId, ...]
    wins: bool
    continues: bool
    option: bool
    points: int
    called: CalledShot | None
    call_assumed: bool
    call_made: bool | None
    reason: str
    basis: tuple[tuple[Event, str], ...]
    summary: str

    @property
    def foul(self) -> PoolFoul | None:
        if self.missed_rack:
            return PoolFoul.BREAK_MISSED_RACK
        return self.fouls[0].foul if self.fouls else None

    @property
    def legal(self) -> bool:
        return not self.fouls and not self.missed_rack

    @property
    def outcome(self) -> Hashable:
        """What a perturbed reading must reproduce for the call to stand."""
        return (self.foul, self.first_ball, frozenset(self.pocketed), frozenset(self.off_table), self.wins,
                self.continues, self.option, self.points)


def describe_outcome(o: Hashable) -> str:
    """Words for :attr:`Decision.outcome` (the evidence review's doubt text)."""
    assert isinstance(o, tuple)
    foul, first, pocketed, off, wins, continues, option, points = o
    words = f"a foul ({foul.value})" if foul is not None else "legal"
    parts = [words]
    if first is not None:
        parts.append(f"first ball {first.value}")
    else:
        parts.append("no ball hit")
    if pocketed:
        parts.append("pots " + ", ".join(sorted((b.value for b in pocketed), key=int)))
    if wins:
        parts.append("wins the rack")
    elif foul is None:
        parts.append("keeps the table" if continues else "the turn passes")
    return ", ".join(parts)


def _balls(bs: tuple[BallId, ...] | list[BallId]) -> str:
    names = [b.value for b in bs]
    if len(names) <= 1:
        return "the " + "".join(names)
    return "the " + ", ".join(names[:-1]) + " and " + names[-1]


def _first_contact(ctx: ShotContext, facts: PoolShotFacts, lowest: BallId | None) -> BallId | None:
    """The ball hit first; of a split hit (several at the same instant) the lowest on the table."""
    if facts.first_contact is None:
        return None
    if lowest is not None and lowest in facts.first_contact_tied:
        return lowest
    return facts.first_contact


def camera_fouls(ctx: ShotContext, facts: PoolShotFacts) -> tuple[list[FoulFound], bool, BallId | None]:
    """The fouls the log shows (precedence: cue ball, first contact, rail, object balls off), whether
    the cue ball missed the rack on a break (000 2.3(e)), and the ball hit first."""
    v = ctx.variant
    lowest = min(ctx.balls, key=number, default=None)
    first = _first_contact(ctx, facts, lowest)
    found: list[FoulFound] = []
    by_ball = {p.ball: p for p in facts.pocketed}
    cue = facts.cue_ball
    if facts.cue_ball_pocketed:
        p = by_ball[cue]
        found.append(FoulFound(PoolFoul.CUE_BALL_POCKETED, f"the cue ball dropped in the {p.pocket.value} pocket",
                               ("000 2.3(c), " if ctx.is_break else "000 ") + "6.1; 002 bola 9 ART 9.2.1",
                               ((p.event, "cue ball pocketed"),)))
    elif facts.cue_ball_off_table:
        found.append(FoulFound(PoolFoul.CUE_BALL_OFF_TABLE, "the cue ball left the table",
                               ("000 2.3(c), " if ctx.is_break else "000 ") + "6.1; 002 bola 9 ART 9.2.1"))
    fc_basis = ((facts.first_contact_event, f"first contact: the {first.value}"),) if (
        facts.first_contact_event is not None and first is not None) else ()
    missed = False
    if ctx.is_break:
        to_rail = set(facts.object_balls_to_cushion) | set(facts.object_balls_off_table)
        if first is None:
            missed = True
        elif lowest is not None and first is not lowest:
            found.append(FoulFound(PoolFoul.ILLEGAL_BREAK,
                                   f"illegal break: the cue ball hit the {first.value} first, not the {lowest.value}",
                                   "000 2.3(b)", fc_basis))
        elif not facts.object_balls_pocketed and len(to_rail) < BREAK_RAIL_BALLS:
            found.append(FoulFound(PoolFoul.ILLEGAL_BREAK,
                                   f"illegal break: no ball was pocketed and only {len(to_rail)} object "
                                   f"ball{'s' if len(to_rail) != 1 else ''} reached a rail; {BREAK_RAIL_BALLS} are "
                                   "required", "000 2.3(b)", fc_basis))
    elif not ctx.push_out:
        if first is None:
            found.append(FoulFound(PoolFoul.NO_CONTACT, "the cue ball touched no object ball",
                                   PoolFoul.NO_CONTACT.articles))
        elif lowest is not None and first is not lowest:
            found.append(FoulFound(PoolFoul.WRONG_BALL_FIRST,
                                   f"the cue ball hit the {first.value} first; the lowest ball on the table is the "
                                   f"{lowest.value}", PoolFoul.WRONG_BALL_FIRST.articles, fc_basis))
        elif not facts.object_balls_pocketed and not facts.rail_after_contact and not facts.object_balls_off_table:
            found.append(FoulFound(PoolFoul.NO_RAIL,
                                   f"nothing was pocketed and no ball reached a rail after the cue ball hit the "
                                   f"{first.value}", PoolFoul.NO_RAIL.articles, fc_basis))
    off = facts.object_balls_off_table
    if off:
        keep = ("; it is respotted" if v.game_ball in off or v.respot_fouled else "")
        found.append(FoulFound(PoolFoul.OBJECT_BALL_OFF_TABLE, f"{_balls(off)} left the table{keep}",
                               ("000 2.3(d), 6.5" if ctx.is_break else "000 6.5") + "; 002 bola 9 ART 11.4"))
    return found, missed, first


def decide(ctx: ShotContext, facts: PoolShotFacts, si: NineBallShotInput) -> Decision:
    """The verdict of one shot (see the module docstring)."""
    v = ctx.variant
    camera, missed, first = camera_fouls(ctx, facts)
    camera = [f for f in camera if f.foul not in si.overrule]
    if PoolFoul.BREAK_MISSED_RACK in si.overrule:
        missed = False
    referee = [FoulFound(f, f"{f.info.description}, declared by the referee", f.articles) for f in si.fouls]
    fouls: list[FoulFound] = []
    for f in referee + camera:
        if all(g.foul is not f.foul for g in fouls):
            fouls.append(f)
    pocketed = facts.object_balls_pocketed
    off = facts.object_balls_off_table
    basis: list[tuple[Event, str]] = []
    if facts.first_contact_event is not None and first is not None:
        basis.append((facts.first_contact_event, f"first contact: the {first.value}"))
    for p in facts.pocketed:
        basis.append((p.event, f"{p.ball.value} pocketed ({p.pocket.value})"))
    gb = v.game_ball
    wins = continues = option = False
    call_made: bool | None = None
    called, assumed = ctx.called, False
    points = 0
    sentences: list[str] = []
    summary: str

    def respot_game_ball(why: str) -> list[BallId]:
        if gb is not None and (gb in pocketed or gb in off):
            sentences.append(f"The {gb.value} is respotted on the foot spot ({why})")
            return [gb]
        return []

    if missed:
        sentences.append("The cue ball did not touch the rack on the break (000 2.3(e))")
        respot = list(pocketed) if v.respot_fouled else respot_game_ball("000 2.6")
        summary = "break missed the rack"
    elif fouls:
        primary, others = fouls[0], fouls[1:]
        text = f"Foul: {primary.text} ({primary.articles})"
        for f in others:
            text += f"; also {f.text} ({f.articles})"
        if others:
            text += "; several fouls on one shot count as one (000 2.7)"
        sentences.append(text)
        if v.respot_fouled:
            respot = list(dict.fromkeys(pocketed + off))
            if respot:
                sentences.append(f"{_balls(respot)[0].upper()}{_balls(respot)[1:]} "
                                 f"{'is' if len(respot) == 1 else 'are'} respotted and score nothing "
                                 f"(standard rotation rule; 002 overview is silent)")
        else:
            respot = respot_game_ball("000 2.6, 6.5")
            down = [b for b in pocketed + off if b is not gb]
            if down:
                sentences.append(f"{_balls(down)[0].upper()}{_balls(down)[1:]} "
                                 f"{'stays' if len(down) == 1 else 'stay'} off the table (000 2.6)")
        sentences.append(f"The turn passes; {ctx.opponent} has ball in hand (000 2.7)")
        summary = "FOUL " + primary.foul.value.replace("_", " ")
    elif ctx.is_break:
        to_rail = len(set(facts.object_balls_to_cushion) | set(off))
        how = (f"pocketed {_balls(pocketed)}" if pocketed
               else f"drove {to_rail} object balls to a rail")
        sentences.append(f"Legal break: the cue ball hit the {first.value if first else '?'} first and {how} "
                         "(000 2.3(b))")
        respot = []
        if v.scored and pocketed:
            points = sum(number(b) for b in pocketed)
            sentences.append(f"{ctx.shooter} scores {points} (each ball its number, {v.source})")
        if gb is not None and gb in pocketed and v.game_ball_wins_on_break:
            wins = True
            sentences.append(f"The {gb.value} dropped on a legal break: {ctx.shooter} wins the rack (000 2.5)")
            summary = f"break, pots {', '.join(b.value for b in pocketed)} - wins the rack"
        else:
            if gb is not None and gb in pocketed:
                respot = [gb]
                sentences.append(f"The {gb.value} pocketed on the break is respotted ({TEN_BALL})")
            if pocketed:
                continues = True
                sentences.append(f"{ctx.shooter} continues (000 2.5)" + (
                    " and may push out on his next shot (000 2.4)" if v.push_out else ""))
                summary = f"break, pots {', '.join(b.value for b in pocketed)}"
            else:
                sentences.append(f"Nothing dropped: the turn passes" + (
                    f" and {ctx.opponent} may push out (000 2.4)" if v.push_out else " (000 2.5)"))
                summary = "break, nothing down"
    elif ctx.push_out:
        sentences.append("Push-out (000 2.4; 002 bola 9 ART 7.4): 6.2 and 6.3 do not apply")
        respot = respot_game_ball("000 2.4, 2.6")
        down = [b for b in pocketed if b is not gb]
        if down:
            sentences.append(f"{_balls(down)[0].upper()}{_balls(down)[1:]} "
                             f"{'stays' if len(down) == 1 else 'stay'} off the table (000 2.4)")
        option = True
        sentences.append(f"{ctx.opponent} may play from this position or pass the shot back (000 2.4; "
                         "002 bola 9 ART 7.6)")
        summary = "push-out"
    else:
        assert first is not None  # no contact is a foul
        split = "" if facts.first_contact is first and len(facts.first_contact_tied) <= 1 else (
            f" (a split hit with the {', '.join(b.value for b in facts.first_contact_tied if b is not first)})")
        hit = f"the cue ball hit the {first.value}{split}, the lowest ball, first (000 6.2)"
        if not ctx.balls:  # only where the positions showed no object ball the state expected
            hit = f"the cue ball hit the {first.value} first"
        respot = []
        if v.called_shots:
            if ctx.safety:
                sentences.append(f"Safety called; {hit}")
                respot = respot_game_ball(TEN_BALL)
                down = [b for b in pocketed if b is not gb]
                if down:
                    sentences.append(f"{_balls(down)[0].upper()}{_balls(down)[1:]} "
                                     f"{'stays' if len(down) == 1 else 'stay'} down ({TEN_BALL})")
                sentences.append("The turn passes (a safety ends the inning)")
                summary = "safety"
            else:
                if called is None and pocketed:
                    p = next(q for q in facts.pocketed if q.ball is not facts.cue_ball)
                    called, assumed = CalledShot(p.ball, p.pocket), True
                call_made = called is not None and facts.pocket_of(called.ball) is called.pocket
                assumed_txt = (" (no call in the referee input: the first ball pocketed is taken as the one "
                               "called, in the pocket it went)") if assumed else ""
                if call_made:
                    assert called is not None
                    sentences.append(f"Legal: {hit}; the called {called.ball.value} dropped in the "
                                     f"{called.pocket.value} pocket{assumed_txt} ({TEN_BALL})")
                    if called.ball is gb:
                        wins = True
                        sentences.append(f"{ctx.shooter} wins the rack (000 2.5, with the call of {TEN_BALL})")
                        summary = f"pots {', '.join(b.value for b in pocketed)} - wins the rack"
                    else:
                        continues = True
                        respot = respot_game_ball(f"the {gb.value} was not called; {TEN_BALL}") if gb else []
                        sentences.append(f"{ctx.shooter} continues (000 2.5)")
                        summary = f"pots {', '.join(b.value for b in pocketed)}"
                elif pocketed:
                    what = (f"the called {called.ball.value} did not drop in the {called.pocket.value} pocket"
                            if called is not None else "no ball was called")
                    sentences.append(f"Legal: {hit}; but {what}: {_balls(pocketed)} pocketed "
                                     f"{'stays' if len(pocketed) == 1 else 'stay'} down ({TEN_BALL})")
                    respot = respot_game_ball(TEN_BALL)
                    option = True
                    sentences.append(f"The turn passes; {ctx.opponent} may play from here or pass the shot back "
                                     f"({TEN_BALL})")
                    summary = "pocketed off the call"
                else:
                    sentences.append(f"Legal: {hit}, a ball reached a rail (000 6.3); nothing dropped: the turn "
                                     "passes (000 2.5)")
                    summary = "miss"
        elif pocketed:
            sentences.append(f"Legal: {hit}; pots {_balls(pocketed)} (000 2.5)")
            if v.scored:
                points = sum(number(b) for b in pocketed)
                sentences.append(f"{ctx.shooter} scores {points} (each ball its number, {v.source})")
            if gb is not None and gb in pocketed:
                wins = True
                combo = " by combination" if first is not gb else ""
                sentences.append(f"The {gb.value} dropped{combo} on a legal shot: {ctx.shooter} wins the rack "
                                 "(000 2.5)")
                summary = f"pots {', '.join(b.value for b in pocketed)} - wins the rack"
            else:
                continues = True
                sentences.append(f"{ctx.shooter} continues (000 2.5)")
                summary = f"pots {', '.join(b.value for b in pocketed)}"
        else:
            sentences.append(f"Legal: {hit} and a ball reached a rail (000 6.3); nothing dropped: the turn passes "
                             "(000 2.5)")
            summary = "miss"
    for f in fouls:
        basis.extend(b for b in f.basis if all(b[0] is not e for e, _ in basis))
    return Decision(
        fouls=tuple(fouls), missed_rack=missed, first_ball=first, pocketed=pocketed, off_table=off,
        respot=tuple(respot), wins=wins, continues=continues, option=option, points=points, called=called,
        call_assumed=assumed, call_made=call_made, reason=". ".join(sentences) + ".", basis=tuple(basis),
        summary=summary,
    )
