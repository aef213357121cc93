"""The verdict of one snooker stroke from its events: pure, so the evidence review can re-judge it
with doubtful events dropped or swapped (:mod:`rules.core.evidence`).

What the stroke must do depends on the ball on (:class:`rules.snooker.balls.BallOn`):

- a red (ART 1.5, 1.6): hit a red first, pot only reds: one point each (ART 1.9);
- a colour (after a red, ART 1.6): the colour nominated (referee input ``called``; with none, the
  colour hit first is taken as nominated and the reason says so), hit first and potted alone: its
  value (ART 1.3); hitting a red first is playing reds in successive strokes (ART 2.2.9);
- a colour of the end sequence (ART 1.6): that colour, its value.

A free ball (ART 1.10, declared by the referee after a foul that leaves the striker snookered)
acts as the ball on: hitting it first is legal, hitting or potting it with the ball on is not the
foul of ART 2.2.5 (its exception), and potted it scores as the ball on (one point as a red), and
it counts as the ball on in penalties ("tendría el valor de la tapada").

Fouls: ART 2.2 cases found in the log (:mod:`rules.snooker.fouls`) plus those the referee declares,
less those he overrules; the penalty is the highest (ART 2.1, at least 4) and the stroke scores
nothing. :func:`decide` does not move the state: :mod:`rules.snooker.engine` applies the
:class:`Decision` (who plays next, respots, the frame's end).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass

from rules.core.pool_shot import PoolShotFacts, read_pool_shot
from rules.core.words import and_list
from rules.snooker.balls import BallOn, check_ball, is_colour, is_red, name, value
from rules.snooker.fouls import ORDER, Basis, SnookerFoul, penalty
from tracking.events import BallBall, CushionHit, Event, OffTable, Pocketed, Shot, ShotEnd, ShotStart
from tracking.ids import BallId

__all__ = [
    "Outcome",
    "ShotContext",
    "Reading",
    "check_shot_balls",
    "read",
    "FoulFound",
    "Decision",
    "describe_outcome",
    "decide",
    "decide_events",
]

Outcome = tuple[SnookerFoul | None, int, int]  # primary foul, points, penalty


@dataclass(frozen=True)
class ShotContext:
    """What the verdict needs from the state and the referee: the ball on, the referee's
    nomination (``called``: the colour when a colour is on, or the free ball), whether a free ball
    was declared, his fouls, the ball they concern, and the fouls he overrules."""

    on: BallOn
    called: BallId | None = None
    free_ball: bool = False
    fouls: tuple[SnookerFoul, ...] = ()
    foul_ball: BallId | None = None
    overrule: tuple[SnookerFoul, ...] = ()


@dataclass(frozen=True)
class Reading:
    """A stroke's facts (:func:`rules.core.pool_shot.read_pool_shot`) with every object ball pocketed
    and off the table listed once per ball: reds the tracker left unnamed (``red``) are counted
    once per pocket they dropped into (two such events into one pocket read as one red, a tracker
    repeat, and put the call in doubt)."""

    facts: PoolShotFacts
    start: ShotStart | None
    potted: tuple[BallId, ...]
    off: tuple[BallId, ...]
    doubts: tuple[str, ...]


def check_shot_balls(shot: Shot) -> None:
    """:class:`rules.core.errors.ShotError` if any event names a ball that is not a snooker ball."""
    for ev in shot.events:
        where = f"shot {shot.number}, {ev.kind.value} event"
        balls: list[BallId] = []
        if isinstance(ev, ShotStart):
            balls = [ev.cue_ball, *ev.positions]
        elif isinstance(ev, ShotEnd):
            balls = list(ev.positions)
        elif isinstance(ev, BallBall):
            balls = list(ev.balls)
        elif isinstance(ev, (CushionHit, Pocketed, OffTable)):
            balls = [ev.ball]
        for b in balls:
            check_ball(b, where)


def read(shot: Shot) -> Reading:
    """The :class:`Reading` of ``shot``."""
    f = read_pool_shot(shot)
    doubts: list[str] = []
    plain_pockets: list[object] = []
    for e in f.events:
        if isinstance(e, Pocketed) and e.ball is BallId.RED:
            plain_pockets.append(e.pocket)
    distinct = list(dict.fromkeys(plain_pockets))
    if len(distinct) < len(plain_pockets):
        doubts.append("two pocket events of an unnamed red in the same pocket are read as one red")
    potted = [b for b in f.object_balls_pocketed if b is not BallId.RED] + [BallId.RED] * len(distinct)
    plain_off = sum(1 for e in f.events if isinstance(e, OffTable) and e.ball is BallId.RED)
    if plain_off > 1:
        doubts.append(f"{plain_off} off-table events of an unnamed red are read as one red")
    return Reading(facts=f, start=shot.start, potted=tuple(potted), off=f.object_balls_off_table, doubts=tuple(doubts))


@dataclass(frozen=True)
class FoulFound:
    """One foul of the stroke: what, the sentence saying it, the balls whose values its penalty
    counts, its penalty, who found it, and the events it rests on."""

    foul: SnookerFoul
    text: str
    balls: tuple[BallId, ...]
    penalty: int
    by_referee: bool
    basis: tuple[tuple[Event, str], ...] = ()


@dataclass(frozen=True)
class Decision:
    """The verdict of one stroke before the state moves (see the module docstring).

    ``points``: the striker's (0 on a foul); ``scored`` the balls that scored; ``penalty`` the
    opponent's points (0 without a foul); ``nominated`` the colour played for when a colour was on
    and how it was known (``nominated_by``: "referee" or "first_contact"); ``free_ball`` the free
    ball used (None without one); ``reds_down`` reds pocketed or off the table (they stay off,
    ART 2.2.6); ``colours_down`` colours pocketed or off the table; ``ball_on_potted`` the end
    sequence's colour went down legally (it stays down, ART 1.6)."""

    fouls: tuple[FoulFound, ...]
    primary: FoulFound | None
    penalty: int
    points: int
    scored: tuple[BallId, ...]
    on_value: int
    nominated: BallId | None
    nominated_by: str | None
    free_ball: BallId | None
    free_ball_by: str | None
    reds_down: int
    colours_down: tuple[BallId, ...]
    ball_on_potted: bool
    reason: str
    basis: tuple[tuple[Event, str], ...]
    reading: Reading

    @property
    def legal(self) -> bool:
        return not self.fouls

    @property
    def outcome(self) -> Outcome:
        return (None if self.primary is None else self.primary.foul, self.points, self.penalty)


def describe_outcome(o: Hashable) -> str:
    assert isinstance(o, tuple)
    foul, points, pen = o
    if foul is not None:
        return f"a foul ({foul.value}, penalty {pen})"
    return f"{points} point{'s' if points != 1 else ''}" if points else "no score"


def _list(balls: tuple[BallId, ...] | list[BallId]) -> str:
    return and_list([name(b) for b in balls])


@dataclass(frozen=True)
class _On:
    """What is "on" for this stroke (ART 1.7, 1.10): the ball-on kind, the end sequence's colour,
    the free ball and the nominated colour (each with how it was known), the value of the ball on
    and the words naming it."""

    on: BallOn
    seq: BallId | None
    free: BallId | None
    free_by: str | None
    nominated: BallId | None
    nom_by: str | None
    v_on: int
    on_text: str

    def is_on(self, b: BallId) -> bool:
        if self.free is not None and b is self.free:
            return True
        if self.on is BallOn.RED:
            return is_red(b)
        if self.on is BallOn.COLOUR:
            return self.nominated is not None and b is self.nominated
        return b is self.seq

    def val(self, b: BallId) -> int:
        """A ball's value for a penalty: the free ball is worth the ball on (ART 1.10)."""
        return self.v_on if self.free is not None and b is self.free else value(b)


def _ball_on(ctx: ShotContext, f: PoolShotFacts) -> _On:
    """ART 1.10 (the free ball: the referee's nomination, else a colour hit first alone) and
    ART 1.7 (the colour on after a red: nominated, else the colour hit first alone)."""
    on, first = ctx.on, f.first_contact
    tied = f.first_contact_tied if first is not None else ()
    single = first is not None and len(tied) <= 1
    seq = on.ball
    free: BallId | None = None
    free_by: str | None = None
    if ctx.free_ball:
        if ctx.called is not None:
            free, free_by = ctx.called, "referee"
        elif single and first is not None and is_colour(first) and first is not seq:
            free, free_by = first, "first_contact"
    nominated: BallId | None = None
    nom_by: str | None = None
    if on is BallOn.COLOUR:
        if ctx.called is not None:
            nominated, nom_by = ctx.called, "referee"
        elif single and first is not None and is_colour(first):
            nominated, nom_by = first, "first_contact"
    if on is BallOn.RED:
        v_on, on_text = 1, "a red"
    elif on is BallOn.COLOUR:
        v_on = value(nominated) if nominated is not None else 0
        on_text = f"the {nominated.value}" if nominated is not None else "a colour, none nominated"
    else:
        assert seq is not None
        v_on, on_text = value(seq), f"the {seq.value}"
    return _On(on, seq, free, free_by, nominated, nom_by, v_on, on_text)


_Found = tuple[SnookerFoul, str, tuple[BallId, ...], tuple[tuple[Event, str], ...]]


def _camera_fouls(
    ctx: ShotContext,
    r: Reading,
    o: _On,
    first_basis: tuple[tuple[Event, str], ...],
    pocket_ev: Mapping[BallId, Event],
    off_ev: Mapping[BallId, Event],
) -> list[_Found]:
    """The fouls the event log shows (ART 2.2): a ball other than the cue ball played (2.2.9), no
    ball hit (2.2.3), two balls hit at once (2.2.5), a ball not on hit first (2.2.2; a red after a
    red, 2.2.10), the cue ball pocketed or off the table (2.2.1, 2.2.7), a ball not on pocketed
    (2.2.8; two at once, 1.9), a ball off the table (2.2.6); those the referee overrules dropped."""
    f, on, first = r.facts, o.on, r.facts.first_contact
    tied = f.first_contact_tied if first is not None else ()
    P, off = r.potted, r.off

    def pot_basis(balls: tuple[BallId, ...] | list[BallId]) -> tuple[tuple[Event, str], ...]:
        return tuple((pocket_ev[b], f"{b.value} pocketed") for b in dict.fromkeys(balls) if b in pocket_ev)

    found: list[_Found] = []
    if f.cue_ball is not BallId.CUE:
        found.append(
            (
                SnookerFoul.PLAYED_NON_CUE_BALL,
                f"the striker played {name(f.cue_ball)}, not the cue ball",
                (),
                ((r.start, f"shot start: the ball struck ({f.cue_ball.value})"),) if r.start else (),
            )
        )
    if first is None:
        found.append((SnookerFoul.NO_BALL_HIT, f"the cue ball hit no ball (the ball on: {o.on_text})", (), ()))
    elif len(tied) > 1:
        if not all(o.is_on(b) for b in tied) or on is BallOn.COLOUR:
            found.append(
                (SnookerFoul.TWO_BALLS_AT_ONCE, f"the cue ball hit {_list(tied)} at once", tuple(tied), first_basis)
            )
    elif not o.is_on(first):
        if on is BallOn.COLOUR and is_red(first):
            found.append(
                (
                    SnookerFoul.REDS_IN_SUCCESSIVE_STROKES,
                    f"a colour was on after the red, but the cue ball hit {name(first)} first",
                    (),
                    first_basis,
                )
            )
        else:
            found.append(
                (
                    SnookerFoul.WRONG_BALL_FIRST,
                    f"the cue ball hit {name(first)} first; the ball on was {o.on_text}",
                    (first,),
                    first_basis,
                )
            )
    if f.cue_ball_pocketed:
        pk = f.pocket_of(f.cue_ball)
        cue_ev = pocket_ev.get(f.cue_ball)
        found.append(
            (
                SnookerFoul.CUE_BALL_POCKETED,
                "the cue ball was pocketed" + (f" in the {pk.value} pocket" if pk else ""),
                (first,) if first is not None else (),
                ((cue_ev, "cue ball pocketed"),) if cue_ev is not None else (),
            )
        )
    elif f.cue_ball_off_table:
        e = off_ev.get(f.cue_ball)
        found.append(
            (
                SnookerFoul.CUE_BALL_OFF_TABLE,
                "the cue ball left the table",
                (),
                ((e, "cue ball off the table"),) if e is not None else (),
            )
        )
    not_on = [b for b in P if not o.is_on(b)]
    if not_on:
        found.append(
            (
                SnookerFoul.POCKETED_BALL_NOT_ON,
                f"{_list(not_on)} {'was' if len(not_on) == 1 else 'were'} pocketed, not the ball on ({o.on_text})",
                tuple(not_on),
                pot_basis(not_on),
            )
        )
        if len(P) >= 2:
            found.append(
                (
                    SnookerFoul.TWO_BALLS_AT_ONCE,
                    f"{_list(P)} were pocketed in one stroke (ART 1.9)",
                    tuple(P),
                    pot_basis(P),
                )
            )
    if off:
        found.append(
            (
                SnookerFoul.BALL_OFF_TABLE,
                f"{_list(off)} left the table",
                tuple(off),
                tuple((off_ev[b], f"{b.value} off the table") for b in off if b in off_ev),
            )
        )
    return _merged([x for x in found if x[0] not in ctx.overrule])


def _penalised(ctx: ShotContext, r: Reading, o: _On, found: list[_Found]) -> tuple[list[FoulFound], FoulFound | None]:
    """ART 2.1: each foul's penalty (the highest value its basis counts, at least 4; the
    referee's declared fouls counted on the balls their basis names), in article order; the
    primary foul is the one of the highest penalty."""
    first = r.facts.first_contact
    tied = r.facts.first_contact_tied if first is not None else ()
    P, off = r.potted, r.off
    balls_for = {
        Basis.ON_OR_HIT: (first,) if first is not None else (),
        Basis.ON: (),
        Basis.TWO_BALLS: tuple(tied) if len(tied) > 1 else tuple(P),
        Basis.ON_OR_OFF: tuple(off),
        Basis.ON_OR_POCKETED: tuple(P),
        Basis.SEVEN: (),
        Basis.ANY: tuple(P)
        + ((first,) if first is not None else ())
        + ((ctx.foul_ball,) if ctx.foul_ball is not None else ()),
        Basis.ON_OR_TOUCHED: (ctx.foul_ball,) if ctx.foul_ball is not None else (),
        Basis.ON_HIT_OR_POCKETED: tuple(P) + ((first,) if first is not None else ()),
    }
    have = {x[0] for x in found}
    found = list(found)
    for rf in ctx.fouls:
        if rf in have:
            continue
        found.append((rf, f"{rf.info.description}, declared by the referee", balls_for[rf.basis], ()))
    fouls: list[FoulFound] = []
    for foul, text, balls, basis in found:
        pen = penalty(foul.basis, o.v_on, tuple(o.val(b) for b in balls))
        fouls.append(FoulFound(foul, text, balls, pen, foul in ctx.fouls and foul not in have, basis))
    fouls.sort(key=lambda x: ORDER[x.foul])
    primary = max(fouls, key=lambda x: (x.penalty, -ORDER[x.foul])) if fouls else None
    return fouls, primary


def _stroke_score(o: _On, P: tuple[BallId, ...]) -> tuple[list[BallId], int]:
    """What the stroke would score without fouls: each red on one point (ART 1.3, 1.9), the
    nominated colour its value (1.6), the end sequence's colour or the free ball instead of it
    the value of the ball on (1.10)."""
    if o.on is BallOn.RED:
        scored = [b for b in P if o.is_on(b)]
        return scored, len(scored)
    if o.on is BallOn.COLOUR:
        if o.nominated is not None and o.nominated in P:
            return [o.nominated], value(o.nominated)
        return [], 0
    assert o.seq is not None
    if o.seq in P:
        return [o.seq], value(o.seq)
    if o.free is not None and o.free in P:
        return [o.free], o.v_on
    return [], 0


def _foul_reason(o: _On, fouls: list[FoulFound], primary: FoulFound, points: int, free_text: str, nom_text: str) -> str:
    """ART 2.1: the fouls with their articles and the penalty; the stroke's points are void."""
    text = f"Foul: {primary.text} ({primary.foul.article})"
    for x in fouls:
        if x is not primary:
            text += f"; also {x.text} ({x.foul.article})"
    text += free_text + nom_text
    text += "; " + _penalty_text(primary, o.v_on, o.on_text, o.val, o.free)
    if points:
        text += "; the points of the stroke are void (ART 2.1)"
    return text


def _score_reason(
    o: _On, first: BallId | None, scored: list[BallId], points: int, free_text: str, nom_text: str
) -> str:
    """A legal stroke: the reds (ART 1.3, 1.6, 1.9), the colour (1.3, 1.6), the free ball (1.10),
    or no score (1.7)."""
    if points and o.on is BallOn.RED:
        return (
            f"Pots {_list(scored)}{free_text}: {points} point{'s' if points > 1 else ''}, one per red "
            f"(ART 1.3, 1.6, 1.9)"
        )
    if points and o.on is BallOn.COLOUR:
        return f"Pots the {scored[0].value}{nom_text}: {points} points (ART 1.3, 1.6)"
    if points:
        if scored[0] is o.seq:
            assert o.seq is not None
            return f"Pots the {o.seq.value}, in order: {points} points (ART 1.3, 1.6)"
        return f"Pots the free ball{free_text}: {points} points, the value of {o.on_text} (ART 1.10)"
    assert first is not None
    return (
        f"No score: the cue ball hit {name(first)} first{free_text}{nom_text}, the ball on "
        f"({o.on_text}), and nothing on was pocketed (ART 1.7)"
    )


def decide(ctx: ShotContext, r: Reading) -> Decision:
    """The verdict of the stroke read as ``r`` in ``ctx`` (see the module docstring): what is on,
    the fouls and their penalty, what the stroke scores, the reason."""
    f = r.facts
    first = f.first_contact
    o = _ball_on(ctx, f)
    first_ev = f.first_contact_event
    first_basis: tuple[tuple[Event, str], ...] = (
        ((first_ev, f"first ball hit ({first.value})"),) if first_ev is not None and first is not None else ()
    )
    pocket_ev = {p.ball: p.event for p in f.pocketed}
    off_ev = {e.ball: e for e in f.events if isinstance(e, OffTable)}
    P, off = r.potted, r.off
    fouls, primary = _penalised(ctx, r, o, _camera_fouls(ctx, r, o, first_basis, pocket_ev, off_ev))
    scored, points = _stroke_score(o, P)
    ball_on_potted = o.seq is not None and o.seq in P and not fouls

    reds_down = sum(1 for b in P if is_red(b)) + sum(1 for b in off if is_red(b))
    colours_down = tuple(dict.fromkeys(b for b in (*P, *off) if is_colour(b)))
    basis = (
        list(first_basis)
        + [(pocket_ev[b], f"{b.value} pocketed") for b in dict.fromkeys(P) if b in pocket_ev]
        + [(off_ev[b], f"{b.value} off the table") for b in off if b in off_ev]
    )
    for x in fouls:
        for ev, role in x.basis:
            if all(ev is not e for e, _ in basis):
                basis.append((ev, role))

    nom_text = ""
    if o.nom_by == "first_contact" and o.nominated is not None:
        nom_text = f" (no colour was nominated: the {o.nominated.value}, hit first, is taken as nominated)"
    free_text = ""
    if o.free is not None:
        as_what = "a red" if o.on is BallOn.RED else o.on_text
        how = "nominated" if o.free_by == "referee" else "no ball was nominated: the ball hit first is taken"
        free_text = f" (free ball: the {o.free.value}, {how}, acts as {as_what}, ART 1.10)"
    elif ctx.free_ball:
        free_text = " (a free ball was declared but the striker played the ball on, ART 1.10)"

    sc: tuple[BallId, ...]
    if fouls:
        assert primary is not None
        reason = _foul_reason(o, fouls, primary, points, free_text, nom_text)
        pen, pts, sc = primary.penalty, 0, ()
    else:
        reason = _score_reason(o, first, scored, points, free_text, nom_text)
        pen, pts, sc = 0, points, tuple(scored)
    return Decision(
        fouls=tuple(fouls),
        primary=primary,
        penalty=pen,
        points=pts,
        scored=sc,
        on_value=o.v_on,
        nominated=o.nominated,
        nominated_by=o.nom_by,
        free_ball=o.free,
        free_ball_by=o.free_by,
        reds_down=reds_down,
        colours_down=colours_down,
        ball_on_potted=ball_on_potted,
        reason=reason,
        basis=tuple(basis),
        reading=r,
    )


def _merged(found: list) -> list:
    """One entry per foul: a foul found twice (two balls hit at once and two pocketed) keeps
    both sentences, balls and events."""
    out: dict[SnookerFoul, tuple] = {}
    for foul, text, balls, basis in found:
        if foul in out:
            _, t0, b0, e0 = out[foul]
            out[foul] = (foul, f"{t0}, and {text}", b0 + balls, e0 + basis)
        else:
            out[foul] = (foul, text, balls, basis)
    return list(out.values())


def _penalty_text(foul: FoulFound, v_on: int, on_text: str, val: Callable[[BallId], int], free: BallId | None) -> str:
    basis = foul.foul.basis
    if basis is Basis.SEVEN:
        return f"penalty 7 (ART 2.1, {foul.foul.article.removeprefix('ART ')})"
    parts = [] if basis is Basis.TWO_BALLS else [f"the ball on ({on_text})" + (f" = {v_on}" if v_on else "")]
    parts += [
        (f"the free ball ({b.value}, as the ball on)" if free is not None and b is free else name(b)) + f" = {val(b)}"
        for b in dict.fromkeys(foul.balls)
    ]
    return f"penalty {foul.penalty}: the highest of {', '.join(parts)}, at least 4 (ART 2.1, {foul.foul.article.removeprefix('ART ')})"


def decide_events(ctx: ShotContext, shot: Shot, mids: Sequence[Event]) -> Decision:
    """:func:`decide` of ``shot`` with its middle events replaced by ``mids`` (for the review)."""
    evs: list[Event] = []
    if shot.start is not None:
        evs.append(shot.start)
    evs.extend(mids)
    if shot.end is not None:
        evs.append(shot.end)
    return decide(ctx, read(Shot(number=shot.number, events=tuple(evs))))
