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

from collections.abc import Hashable
from dataclasses import dataclass, field

from rules.core.pool_shot import PoolShotFacts
from rules.core.words import and_list
from rules.nine_ball.fouls import PoolFoul
from rules.nine_ball.inputs import CalledShot, NineBallShotInput
from rules.nine_ball.variants import Variant, number
from tracking.events import Event
from tracking.ids import BallId

__all__ = [
    "BREAK_RAIL_BALLS",
    "TEN_BALL",
    "ShotContext",
    "FoulFound",
    "Decision",
    "describe_outcome",
    "camera_fouls",
    "decide",
]

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
        return (
            self.foul,
            self.first_ball,
            frozenset(self.pocketed),
            frozenset(self.off_table),
            self.wins,
            self.continues,
            self.option,
            self.points,
        )


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
    return "the " + (and_list(names) if names else "")


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
        found.append(
            FoulFound(
                PoolFoul.CUE_BALL_POCKETED,
                f"the cue ball dropped in the {p.pocket.value} pocket",
                ("000 2.3(c), " if ctx.is_break else "000 ") + "6.1; 002 bola 9 ART 9.2.1",
                ((p.event, "cue ball pocketed"),),
            )
        )
    elif facts.cue_ball_off_table:
        found.append(
            FoulFound(
                PoolFoul.CUE_BALL_OFF_TABLE,
                "the cue ball left the table",
                ("000 2.3(c), " if ctx.is_break else "000 ") + "6.1; 002 bola 9 ART 9.2.1",
            )
        )
    fc_basis = (
        ((facts.first_contact_event, f"first contact: the {first.value}"),)
        if (facts.first_contact_event is not None and first is not None)
        else ()
    )
    missed = False
    if ctx.is_break:
        to_rail = set(facts.object_balls_to_cushion) | set(facts.object_balls_off_table)
        if first is None:
            missed = True
        elif lowest is not None and first is not lowest:
            found.append(
                FoulFound(
                    PoolFoul.ILLEGAL_BREAK,
                    f"illegal break: the cue ball hit the {first.value} first, not the {lowest.value}",
                    "000 2.3(b)",
                    fc_basis,
                )
            )
        elif not facts.object_balls_pocketed and len(to_rail) < BREAK_RAIL_BALLS:
            found.append(
                FoulFound(
                    PoolFoul.ILLEGAL_BREAK,
                    f"illegal break: no ball was pocketed and only {len(to_rail)} object "
                    f"ball{'s' if len(to_rail) != 1 else ''} reached a rail; {BREAK_RAIL_BALLS} are "
                    "required",
                    "000 2.3(b)",
                    fc_basis,
                )
            )
    elif not ctx.push_out:
        if first is None:
            found.append(
                FoulFound(PoolFoul.NO_CONTACT, "the cue ball touched no object ball", PoolFoul.NO_CONTACT.articles)
            )
        elif lowest is not None and first is not lowest:
            found.append(
                FoulFound(
                    PoolFoul.WRONG_BALL_FIRST,
                    f"the cue ball hit the {first.value} first; the lowest ball on the table is the {lowest.value}",
                    PoolFoul.WRONG_BALL_FIRST.articles,
                    fc_basis,
                )
            )
        elif not facts.object_balls_pocketed and not facts.rail_after_contact and not facts.object_balls_off_table:
            found.append(
                FoulFound(
                    PoolFoul.NO_RAIL,
                    f"nothing was pocketed and no ball reached a rail after the cue ball hit the {first.value}",
                    PoolFoul.NO_RAIL.articles,
                    fc_basis,
                )
            )
    off = facts.object_balls_off_table
    if off:
        keep = "; it is respotted" if v.game_ball in off or v.respot_fouled else ""
        found.append(
            FoulFound(
                PoolFoul.OBJECT_BALL_OFF_TABLE,
                f"{_balls(off)} left the table{keep}",
                ("000 2.3(d), 6.5" if ctx.is_break else "000 6.5") + "; 002 bola 9 ART 11.4",
            )
        )
    return found, missed, first


@dataclass
class _Draft:
    """The verdict being written by one call of :func:`decide` (local to it): the reason's
    sentences in order and what the shot does."""

    ctx: ShotContext
    facts: PoolShotFacts
    first: BallId | None
    sentences: list[str] = field(default_factory=list)
    respot: list[BallId] = field(default_factory=list)
    summary: str = ""
    wins: bool = False
    continues: bool = False
    option: bool = False
    points: int = 0
    called: CalledShot | None = None
    assumed: bool = False
    call_made: bool | None = None

    @property
    def pocketed(self) -> tuple[BallId, ...]:
        return self.facts.object_balls_pocketed

    @property
    def off(self) -> tuple[BallId, ...]:
        return self.facts.object_balls_off_table

    def respot_game_ball(self, why: str) -> list[BallId]:
        """The game ball, respotted (000 2.6) if it was pocketed or left the table; ``why`` cites."""
        gb = self.ctx.variant.game_ball
        if gb is not None and (gb in self.pocketed or gb in self.off):
            self.sentences.append(f"The {gb.value} is respotted on the foot spot ({why})")
            return [gb]
        return []

    def stays_down(self, down: list[BallId], verb: str, why: str) -> None:
        """Say that ``down`` stay(s) off the table / down (``verb``: "off the table" or "down")."""
        if down:
            self.sentences.append(
                f"{_balls(down)[0].upper()}{_balls(down)[1:]} {'stays' if len(down) == 1 else 'stay'} {verb} ({why})"
            )

    def scores_ball_numbers(self) -> None:
        """Rotation: each ball pocketed scores its number (002 overview)."""
        v = self.ctx.variant
        if v.scored and self.pocketed:
            self.points = sum(number(b) for b in self.pocketed)
            self.sentences.append(f"{self.ctx.shooter} scores {self.points} (each ball its number, {v.source})")


def _judged_fouls(
    ctx: ShotContext, facts: PoolShotFacts, si: NineBallShotInput
) -> tuple[list[FoulFound], bool, BallId | None]:
    """The fouls of the shot: the referee's declared ones first, then the camera's not overruled
    (000 6; one of each), whether the break missed the rack (000 2.3(e)) and the first ball hit."""
    camera, missed, first = camera_fouls(ctx, facts)
    camera = [f for f in camera if f.foul not in si.overrule]
    if PoolFoul.BREAK_MISSED_RACK in si.overrule:
        missed = False
    referee = [FoulFound(f, f"{f.info.description}, declared by the referee", f.articles) for f in si.fouls]
    fouls: list[FoulFound] = []
    for f in referee + camera:
        if all(g.foul is not f.foul for g in fouls):
            fouls.append(f)
    return fouls, missed, first


def _break_missed_rack(d: _Draft) -> None:
    """000 2.3(e): the cue ball did not touch the rack on the break."""
    d.sentences.append("The cue ball did not touch the rack on the break (000 2.3(e))")
    d.respot = list(d.pocketed) if d.ctx.variant.respot_fouled else d.respot_game_ball("000 2.6")
    d.summary = "break missed the rack"


def _foul(d: _Draft, fouls: list[FoulFound]) -> None:
    """000 2.7 (several fouls count as one; ball in hand), 2.6 and 6.5 (the game ball respotted,
    the others stay down; rotation respots every ball)."""
    v, gb = d.ctx.variant, d.ctx.variant.game_ball
    primary, others = fouls[0], fouls[1:]
    text = f"Foul: {primary.text} ({primary.articles})"
    for f in others:
        text += f"; also {f.text} ({f.articles})"
    if others:
        text += "; several fouls on one shot count as one (000 2.7)"
    d.sentences.append(text)
    if v.respot_fouled:
        d.respot = list(dict.fromkeys(d.pocketed + d.off))
        if d.respot:
            d.sentences.append(
                f"{_balls(d.respot)[0].upper()}{_balls(d.respot)[1:]} "
                f"{'is' if len(d.respot) == 1 else 'are'} respotted and score nothing "
                f"(standard rotation rule; 002 overview is silent)"
            )
    else:
        d.respot = d.respot_game_ball("000 2.6, 6.5")
        d.stays_down([b for b in d.pocketed + d.off if b is not gb], "off the table", "000 2.6")
    d.sentences.append(f"The turn passes; {d.ctx.opponent} has ball in hand (000 2.7)")
    d.summary = "FOUL " + primary.foul.value.replace("_", " ")


def _legal_break(d: _Draft) -> None:
    """000 2.3(b) (a legal break), 2.5 (the game ball on the break wins; a ball down keeps the
    table), 2.4 (the push-out after it); ten-ball respots its game ball."""
    ctx, v, gb, pocketed, first = d.ctx, d.ctx.variant, d.ctx.variant.game_ball, d.pocketed, d.first
    to_rail = len(set(d.facts.object_balls_to_cushion) | set(d.off))
    how = f"pocketed {_balls(pocketed)}" if pocketed else f"drove {to_rail} object balls to a rail"
    d.sentences.append(
        f"Legal break: the cue ball hit the {first.value if first else '?'} first and {how} (000 2.3(b))"
    )
    d.scores_ball_numbers()
    if gb is not None and gb in pocketed and v.game_ball_wins_on_break:
        d.wins = True
        d.sentences.append(f"The {gb.value} dropped on a legal break: {ctx.shooter} wins the rack (000 2.5)")
        d.summary = f"break, pots {', '.join(b.value for b in pocketed)} - wins the rack"
        return
    if gb is not None and gb in pocketed:
        d.respot = [gb]
        d.sentences.append(f"The {gb.value} pocketed on the break is respotted ({TEN_BALL})")
    if pocketed:
        d.continues = True
        d.sentences.append(
            f"{ctx.shooter} continues (000 2.5)"
            + (" and may push out on his next shot (000 2.4)" if v.push_out else "")
        )
        d.summary = f"break, pots {', '.join(b.value for b in pocketed)}"
    else:
        d.sentences.append(
            "Nothing dropped: the turn passes"
            + (f" and {ctx.opponent} may push out (000 2.4)" if v.push_out else " (000 2.5)")
        )
        d.summary = "break, nothing down"


def _push_out(d: _Draft) -> None:
    """000 2.4 (002 bola 9 ART 7.4, 7.6): no 6.2/6.3; the game ball respotted, the others stay
    down; the opponent plays or passes the shot back."""
    d.sentences.append("Push-out (000 2.4; 002 bola 9 ART 7.4): 6.2 and 6.3 do not apply")
    d.respot = d.respot_game_ball("000 2.4, 2.6")
    d.stays_down([b for b in d.pocketed if b is not d.ctx.variant.game_ball], "off the table", "000 2.4")
    d.option = True
    d.sentences.append(
        f"{d.ctx.opponent} may play from this position or pass the shot back (000 2.4; 002 bola 9 ART 7.6)"
    )
    d.summary = "push-out"


def _hit(d: _Draft) -> str:
    """How the cue ball met the lowest ball (000 6.2), a split hit named."""
    first, facts = d.first, d.facts
    assert first is not None  # no contact is a foul
    split = (
        ""
        if facts.first_contact is first and len(facts.first_contact_tied) <= 1
        else (f" (a split hit with the {', '.join(b.value for b in facts.first_contact_tied if b is not first)})")
    )
    if not d.ctx.balls:  # only where the positions showed no object ball the state expected
        return f"the cue ball hit the {first.value} first"
    return f"the cue ball hit the {first.value}{split}, the lowest ball, first (000 6.2)"


def _called_safety(d: _Draft, hit: str) -> None:
    """Ten-ball (WPA): a called safety ends the inning; what drops stays down, the game ball
    respotted."""
    gb = d.ctx.variant.game_ball
    d.sentences.append(f"Safety called; {hit}")
    d.respot = d.respot_game_ball(TEN_BALL)
    d.stays_down([b for b in d.pocketed if b is not gb], "down", TEN_BALL)
    d.sentences.append("The turn passes (a safety ends the inning)")
    d.summary = "safety"


def _called_shot(d: _Draft, hit: str) -> None:
    """Ten-ball (WPA; 000 2.5 with the call): the called ball in the called pocket keeps the table
    (the game ball wins); a ball pocketed off the call stays down and gives the opponent the
    option; nothing down passes the turn (000 6.3, 2.5)."""
    ctx, gb, pocketed, facts = d.ctx, d.ctx.variant.game_ball, d.pocketed, d.facts
    called = d.called
    if called is None and pocketed:
        p = next(q for q in facts.pocketed if q.ball is not facts.cue_ball)
        called, d.assumed = CalledShot(p.ball, p.pocket), True
        d.called = called
    d.call_made = called is not None and facts.pocket_of(called.ball) is called.pocket
    assumed_txt = (
        (" (no call in the referee input: the first ball pocketed is taken as the one called, in the pocket it went)")
        if d.assumed
        else ""
    )
    if d.call_made:
        assert called is not None
        d.sentences.append(
            f"Legal: {hit}; the called {called.ball.value} dropped in the "
            f"{called.pocket.value} pocket{assumed_txt} ({TEN_BALL})"
        )
        if called.ball is gb:
            d.wins = True
            d.sentences.append(f"{ctx.shooter} wins the rack (000 2.5, with the call of {TEN_BALL})")
            d.summary = f"pots {', '.join(b.value for b in pocketed)} - wins the rack"
        else:
            d.continues = True
            d.respot = d.respot_game_ball(f"the {gb.value} was not called; {TEN_BALL}") if gb else []
            d.sentences.append(f"{ctx.shooter} continues (000 2.5)")
            d.summary = f"pots {', '.join(b.value for b in pocketed)}"
    elif pocketed:
        what = (
            f"the called {called.ball.value} did not drop in the {called.pocket.value} pocket"
            if called is not None
            else "no ball was called"
        )
        d.sentences.append(
            f"Legal: {hit}; but {what}: {_balls(pocketed)} pocketed "
            f"{'stays' if len(pocketed) == 1 else 'stay'} down ({TEN_BALL})"
        )
        d.respot = d.respot_game_ball(TEN_BALL)
        d.option = True
        d.sentences.append(f"The turn passes; {ctx.opponent} may play from here or pass the shot back ({TEN_BALL})")
        d.summary = "pocketed off the call"
    else:
        d.sentences.append(f"Legal: {hit}, a ball reached a rail (000 6.3); nothing dropped: the turn passes (000 2.5)")
        d.summary = "miss"


def _legal_pot(d: _Draft, hit: str) -> None:
    """000 2.5: a ball pocketed on a legal shot keeps the table; the game ball wins the rack, also
    by combination; rotation scores the numbers."""
    ctx, gb, pocketed = d.ctx, d.ctx.variant.game_ball, d.pocketed
    d.sentences.append(f"Legal: {hit}; pots {_balls(pocketed)} (000 2.5)")
    d.scores_ball_numbers()
    if gb is not None and gb in pocketed:
        d.wins = True
        combo = " by combination" if d.first is not gb else ""
        d.sentences.append(f"The {gb.value} dropped{combo} on a legal shot: {ctx.shooter} wins the rack (000 2.5)")
        d.summary = f"pots {', '.join(b.value for b in pocketed)} - wins the rack"
    else:
        d.continues = True
        d.sentences.append(f"{ctx.shooter} continues (000 2.5)")
        d.summary = f"pots {', '.join(b.value for b in pocketed)}"


def _legal_miss(d: _Draft, hit: str) -> None:
    """000 6.3 (a rail after the contact), 2.5 (nothing dropped: the turn passes)."""
    d.sentences.append(f"Legal: {hit} and a ball reached a rail (000 6.3); nothing dropped: the turn passes (000 2.5)")
    d.summary = "miss"


def decide(ctx: ShotContext, facts: PoolShotFacts, si: NineBallShotInput) -> Decision:
    """The verdict of one shot (see the module docstring): the fouls, then the one case that
    applies, in the order of the module docstring."""
    fouls, missed, first = _judged_fouls(ctx, facts, si)
    d = _Draft(ctx, facts, first, called=ctx.called)
    basis: list[tuple[Event, str]] = []
    if facts.first_contact_event is not None and first is not None:
        basis.append((facts.first_contact_event, f"first contact: the {first.value}"))
    for p in facts.pocketed:
        basis.append((p.event, f"{p.ball.value} pocketed ({p.pocket.value})"))
    if missed:
        _break_missed_rack(d)
    elif fouls:
        _foul(d, fouls)
    elif ctx.is_break:
        _legal_break(d)
    elif ctx.push_out:
        _push_out(d)
    else:
        hit = _hit(d)
        if ctx.variant.called_shots:
            (_called_safety if ctx.safety else _called_shot)(d, hit)
        elif d.pocketed:
            _legal_pot(d, hit)
        else:
            _legal_miss(d, hit)
    for f in fouls:
        basis.extend(b for b in f.basis if all(b[0] is not e for e, _ in basis))
    return Decision(
        fouls=tuple(fouls),
        missed_rack=missed,
        first_ball=first,
        pocketed=d.pocketed,
        off_table=d.off,
        respot=tuple(d.respot),
        wins=d.wins,
        continues=d.continues,
        option=d.option,
        points=d.points,
        called=d.called,
        call_assumed=d.assumed,
        call_made=d.call_made,
        reason=". ".join(d.sentences) + ".",
        basis=tuple(basis),
        summary=d.summary,
    )
