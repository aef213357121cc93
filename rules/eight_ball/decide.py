"""The verdict of one eight-ball shot from its facts (002, Reglamento bola 8): pure, no bookkeeping.

:func:`decide` reads one shot (:class:`rules.core.pool_shot.PoolShotFacts`) against the state before it
and the referee's input, and says what the rules make of it: the fouls, whether the shooter keeps
the table, a group chosen, a rack won or lost, an option given, the balls on the table after it.
The engine (:mod:`rules.eight_ball.engine`) turns that into the call and the next state, and calls
:func:`decide` again on perturbed events to decide ``needs_review`` (:mod:`rules.core.evidence`).

Readings of the regulation (see README.md for the citation style and the article map):

- Break (ART 10.1): legal with a ball pocketed (the 8 too) or four object balls driven to a cushion
  (any cushion during the shot). An illegal break is no foul; the opponent accepts the table or
  re-racks and breaks (ART 10.2). The cue ball need not hit the head ball first (ART 10.3), and no
  first-ball or rail rule applies (ART 13.1 exempts the break). A legal break with a ball pocketed
  and no foul keeps the breaker at the table (ART 15.1), the table open (ART 8.2, 14.1).
- The 8 on the break wins and loses nothing: the breaker re-racks or has it re-spotted and shoots
  either way (ART 9.1); with a scratch (a foul, ART 16.1c) the 8 is re-spotted, the other balls stay
  down, the table is open and the opponent has the cue ball in hand behind the head string
  (ART 11.1, 11.2; ART 17.1 names the break as the one place ball in hand is behind the line).
  A ball off the table on the break is a foul and is re-spotted, the 8 included (ART 20.1, 20.2;
  ART 25.1c excepts the break from losing the game).
- Legal shot (ART 13.1): the first ball touched is one of the shooter's (any ball on an open table,
  the 8 included, ART 8.1, 8.2; the 8 once his group is gone, ART 15.2), then a ball pocketed or a
  ball (cue or object) to a cushion after that contact. A split hit on a legal ball is legal.
- Calls (ART 5): a called ball pocketed in the called pocket, with no foul, keeps the table and every
  other ball pocketed counts (ART 5.2, 15.1); on an open table it chooses the shooter's group
  (ART 14.2). A called ball in another pocket, or not pocketed, ends the turn with no foul, the
  balls pocketed staying down (ART 5.1, 5.3, 19.1, 19.2). With no call given, the first pocketed
  ball of the shooter's group is taken as called in the pocket it entered (ART 5.1: obvious balls
  need no call); the 8 always needs its pocket named (ART 24.1): without a call it is taken as
  called where it went and the call is flagged for review. A call of a ball that is not the
  shooter's can never be pocketed legally (ART 15.1): the turn ends.
- Safety (ART 5.4): announced, the turn ends whatever is pocketed; the balls stay down and choose
  no group (ART 19.1, 19.2). The 8 pocketed on a safety had no pocket named: the game is lost
  (ART 24.1, 25.1d).
- Fouls (ART 16, 20.1): the opponent has the cue ball in hand anywhere (ART 17.1); pocketed balls
  stay down (ART 19.2), except that a foul with the cue ball touching a ball at the start puts the
  shooter's own pocketed balls back (ART 23.2-23.4); balls off the table are re-spotted (ART 20.2,
  on the foot spot line, ART 21.1). Three fouls in a row lose nothing (ART 26.3).
- Loss of the game (ART 25.1): a) a foul while pocketing the 8, b) the 8 with the last ball of the
  group, c) the 8 off the table (not on the break), d) the 8 in a pocket other than the one named,
  e) the 8 while balls of the group remain (an open table included), f) the 8 and the cue ball
  pocketed together. Every item that applies is cited. The 8 pocketed legally with the group gone
  wins (ART 1.3, 15.2, 24.1).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass, field

from rules.core.pool_shot import PocketedBall, PoolShotFacts
from rules.core.words import and_list
from rules.eight_ball.fouls import ART, EightBallFoul
from rules.eight_ball.inputs import Called, EightBallShotInput
from rules.eight_ball.state import (
    EIGHT,
    OBJECT_BALLS,
    SOLIDS,
    STRIPES,
    EightBallState,
    Group,
    Option,
    sorted_balls,
)
from tracking.events import CushionHit, Event, OffTable
from tracking.ids import BallId, Cushion, Pocket

__all__ = ["LOSS_TEXT", "LOSS_ORDER", "FoulFound", "Decision", "describe_outcome", "decide"]

#: ART 25.1 items, as cited: what each says.
LOSS_TEXT: dict[str, str] = {
    "a": "a foul while pocketing the 8",
    "b": "the 8 pocketed on the same shot as the last ball of the group",
    "c": "the 8 driven off the table",
    "d": "the 8 pocketed in a pocket other than the one named",
    "e": "the 8 pocketed while balls of the group remain",
    "f": "the 8 and the cue ball pocketed on the same shot",
}
LOSS_ORDER = "cfabed"


@dataclass(frozen=True)
class FoulFound:
    foul: EightBallFoul
    text: str  # follows "Foul: "
    basis: tuple[tuple[Event, str], ...] = ()


@dataclass(frozen=True)
class Decision:
    """What the rules make of one shot (see the module docstring).

    ``continues``: the shooter keeps the table; ``group``: the group the shooter gets (open table);
    ``rack_winner``: the index of the player who won the rack with this shot (None: it goes on);
    ``loss``: the ART 25.1 items that lost it; ``option``: the option given (ART 9.1, 10.2);
    ``balls_after``: object balls on the table after the shot (re-spots included, before any
    option); ``respot``: the balls put back on the foot spot line; ``ball_in_hand`` /
    ``behind_head_string``: for the opponent after a foul."""

    break_shot: bool
    first_ball: BallId | None
    fouls: tuple[FoulFound, ...]
    legal_break: bool | None
    pocketed: tuple[PocketedBall, ...]
    off_table: tuple[BallId, ...]
    called: Called | None
    call_given: bool
    continues: bool
    group: Group | None
    rack_winner: int | None
    loss: tuple[str, ...]
    option: Option | None
    balls_after: frozenset[BallId]
    respot: tuple[BallId, ...]
    ball_in_hand: bool
    behind_head_string: bool
    reason: str
    summary: str
    basis: tuple[tuple[Event, str], ...]
    doubts: tuple[str, ...]

    @property
    def outcome(self) -> Hashable:
        """The call's substance, compared by the evidence review."""
        return (
            tuple(f.foul.value for f in self.fouls),
            self.continues,
            self.group,
            self.rack_winner,
            self.loss,
            self.option,
            self.legal_break,
        )


def describe_outcome(o: Hashable) -> str:
    assert isinstance(o, tuple)
    fouls, continues, group, winner, loss, option, legal_break = o
    if loss:
        return "a loss of the rack (" + ", ".join(f"ART 25.1{x}" for x in loss) + ")"
    if winner is not None:
        return "the rack won"
    if fouls:
        return f"a foul ({fouls[0]})"
    if legal_break is False:
        return "an illegal break"
    if option is not None:
        return f"an option ({option.value})"
    if group is not None:
        return f"the {group.value} chosen"
    return "the turn kept" if continues else "the turn over"


def _names(balls: list[BallId] | tuple[BallId, ...]) -> str:
    return and_list([b.value for b in balls])


def _pocket_list(ps: tuple[PocketedBall, ...]) -> str:
    return ", ".join(f"{p.ball.value} ({p.pocket.value})" for p in ps)


def _rail_after_contact(f: PoolShotFacts, frozen: BallId | None, cushion: Cushion | None) -> bool:
    """ART 13.1b's cushion after the contact; with the first ball declared frozen to a cushion
    (ART 22.1, 22.2) its first contact with that cushion after the hit does not count (a later one
    does: it left the cushion and came back), the cue ball's do."""
    ev0 = f.first_contact_event
    if frozen is None or ev0 is None or f.first_contact is not frozen:
        return f.rail_after_contact
    skipped = False
    for e in f.events:
        if isinstance(e, CushionHit) and e.t_s >= ev0.t_s - 1e-4:
            if e.ball is frozen and not skipped and (cushion is None or e.cushion is cushion):
                skipped = True
                continue
            return True
    return False


def _camera_fouls(
    st: EightBallState,
    f: PoolShotFacts,
    break_shot: bool,
    contacts: tuple[tuple[BallId, BallId], ...],
    frozen: BallId | None = None,
    frozen_cushion: Cushion | None = None,
) -> list[FoulFound]:
    i = st.at_table
    out: list[FoulFound] = []
    scratch_art = "16.1c, 11.1" if break_shot else "16.1b"
    for p in f.pocketed:
        if p.ball is f.cue_ball:
            out.append(
                FoulFound(
                    EightBallFoul.SCRATCH,
                    f"the cue ball was pocketed ({p.pocket.value}) [{ART} {scratch_art}]",
                    ((p.event, f"cue ball into {p.pocket.value}"),),
                )
            )
    if f.cue_ball_off_table:
        out.append(
            FoulFound(
                EightBallFoul.CUE_BALL_OFF_TABLE,
                f"the cue ball left the table [{ART} {scratch_art}]",
                _off_basis(f, (f.cue_ball,)),
            )
        )
    if not break_shot:
        if f.first_contact is None:
            out.append(FoulFound(EightBallFoul.NO_CONTACT, "the cue ball touched no object ball"))
        else:
            targets = st.targets(i)
            tied = f.first_contact_tied or (f.first_contact,)
            ev = f.first_contact_event
            basis = ((ev, f"first ball ({f.first_contact.value})"),) if ev is not None else ()
            if not any(b in targets for b in tied):
                g = st.groups[i]
                if g is None:
                    whose = f"on the open table any object ball may be hit first ({ART} 8.1, 8.2), but it was not on the table"
                elif st.on_eight(i):
                    whose = f"his group is off the table, so he plays the 8 ({ART} 15.2)"
                elif f.first_contact is EIGHT:
                    whose = (
                        f"he plays the {g.value}; once the groups are chosen the 8 is no ball to hit first nor "
                        f"to play a combination with ({ART} 8.2, 18.1)"
                    )
                else:
                    whose = f"he plays the {g.value}"
                touching = any(f.cue_ball in pair and f.first_contact in pair for pair in contacts)
                extra = (
                    f"; the cue ball was touching it, so this is also an intentional foul ({ART} 23.3, 23.5)"
                    if touching
                    else ""
                )
                out.append(
                    FoulFound(
                        EightBallFoul.WRONG_BALL_FIRST,
                        f"the cue ball first touched the {f.first_contact.value}; {whose} "
                        f"[{EightBallFoul.WRONG_BALL_FIRST.articles}]{extra}",
                        basis,
                    )
                )
            elif not f.object_balls_pocketed and not _rail_after_contact(f, frozen, frozen_cushion):
                why = "no ball was pocketed and no ball reached a cushion after the first contact" + (
                    f" (the {frozen.value}, declared frozen, does not count its own cushion, {ART} 22.1)"
                    if frozen is not None and frozen is f.first_contact and f.rail_after_contact
                    else ""
                )
                out.append(FoulFound(EightBallFoul.NO_RAIL_AFTER_CONTACT, why, basis))
    objs = tuple(b for b in f.object_balls_off_table if b in OBJECT_BALLS)
    if objs:
        out.append(
            FoulFound(
                EightBallFoul.BALL_OFF_TABLE, f"the {_names(sorted_balls(objs))} left the table", _off_basis(f, objs)
            )
        )
    return out


def _off_basis(f: PoolShotFacts, balls: tuple[BallId, ...]) -> tuple[tuple[Event, str], ...]:
    out = []
    for e in f.events:
        if isinstance(e, OffTable) and e.ball in balls:
            out.append((e, f"{e.ball.value} off the table"))
    return tuple(out)


def _cite(*items: str) -> str:
    return f"{ART} " + ", ".join(items)


def _foul_text(fouls: list[FoulFound]) -> str:
    """ "Foul: …" naming every foul of the shot with its articles (ART 16-23)."""
    head, rest = fouls[0], fouls[1:]
    t = f"Foul: {head.text}" + ("" if "[" in head.text else f" ({head.foul.articles})")
    for x in rest:
        t += f"; also {x.text}" + ("" if "[" in x.text else f" ({x.foul.articles})")
    return t.replace("[", "(").replace("]", ")")


@dataclass
class _Draft:
    """The verdict being written by one call of :func:`decide` (local to it)."""

    st: EightBallState
    f: PoolShotFacts
    si: EightBallShotInput
    pocketed: tuple[PocketedBall, ...]
    off: tuple[BallId, ...]
    fouls: list[FoulFound]
    basis: list[tuple[Event, str]]
    doubts: list[str]
    respot: list[BallId]
    parts: list[str] = field(default_factory=list)
    group: Group | None = None
    winner: int | None = None
    loss: tuple[str, ...] = ()
    option: Option | None = None
    continues: bool = False
    legal_break: bool | None = None
    called: Called | None = None
    call_given: bool = False
    behind: bool = False
    summary: str = ""
    #: in play (not a break): the shooter's balls and how the call is worded
    mine: frozenset[BallId] | set[BallId] = frozenset()
    call_words: str = ""

    @property
    def foul(self) -> bool:
        return bool(self.fouls)

    @property
    def pocketed_balls(self) -> tuple[BallId, ...]:
        return tuple(p.ball for p in self.pocketed)

    @property
    def pocket_of(self) -> dict[BallId, Pocket]:
        return {p.ball: p.pocket for p in self.pocketed}

    def respot_off_table(self) -> None:
        """ART 20.2, 21.1: the balls off the table are re-spotted on the foot spot line."""
        off = self.off
        self.parts.append(
            f"the {_names(sorted_balls(off))} off the table {'is' if len(off) == 1 else 'are'} "
            f"re-spotted on the foot spot line ({_cite('20.2', '21.1')})"
        )


def _judged_fouls(
    st: EightBallState,
    f: PoolShotFacts,
    si: EightBallShotInput,
    contacts: tuple[tuple[BallId, BallId], ...],
    frozen_to: Mapping[BallId, Cushion] | None,
) -> list[FoulFound]:
    """The referee's declared fouls first, then the camera's not overruled (ART 16-23; one of each;
    ART 22: the frozen ball the referee declares, against the cushion it rests on)."""
    fz = si.frozen
    fz_cushion = None if fz is None else (frozen_to or {}).get(fz)
    camera = [x for x in _camera_fouls(st, f, st.next_is_break, contacts, fz, fz_cushion) if x.foul not in si.overrule]
    fouls: list[FoulFound] = []
    for x in [FoulFound(r, f"{r.info.description}, declared by the referee [{r.articles}]") for r in si.fouls] + camera:
        if all(y.foul is not x.foul for y in fouls):
            fouls.append(x)
    return fouls


def _break(d: _Draft) -> None:
    """ART 10.1 (a legal break), 10.2 (an illegal one: the option), then :func:`_break_result`."""
    f, pocketed_balls = d.f, d.pocketed_balls
    d.legal_break = bool(pocketed_balls) or len(f.object_balls_to_cushion & OBJECT_BALLS) >= 4
    for e in f.events:
        if isinstance(e, CushionHit) and e.ball in OBJECT_BALLS and not pocketed_balls:
            d.basis.append((e, f"{e.ball.value} to the {e.cushion.value} cushion (break)"))
    if d.legal_break:
        how = (
            f"the {_names(pocketed_balls)} pocketed"
            if pocketed_balls
            else f"{len(f.object_balls_to_cushion & OBJECT_BALLS)} object balls driven to a cushion"
        )
        d.parts.append(f"Legal break: {how} ({_cite('10.1a' if pocketed_balls else '10.1b')})")
    else:
        n = len(f.object_balls_to_cushion & OBJECT_BALLS)
        d.parts.append(
            f"Illegal break: no ball pocketed and only {n} object ball{'s' if n != 1 else ''} driven to a "
            f"cushion, four are needed ({_cite('10.1a', '10.1b')}); no foul for that, the opponent "
            f"accepts the table or re-racks and breaks ({_cite('10.2a', '10.2b')})"
        )
        d.option = Option.ILLEGAL_BREAK
    _break_result(d)
    if d.off:
        d.respot_off_table()


def _break_result(d: _Draft) -> None:
    """ART 11.1, 11.2, 17.1, 25.1c (a foul on the break), 9.1 (the 8 on the break), 15.1, 8.2,
    14.1 (the breaker keeps an open table, or the turn passes)."""
    pocketed_balls = d.pocketed_balls
    eight_in = EIGHT in pocketed_balls
    if d.foul:
        d.parts.append(_foul_text(d.fouls))
        if eight_in:
            d.respot.append(EIGHT)
        down = [b for b in pocketed_balls if b is not EIGHT]
        kept = f"the {_names(down)} pocketed stay{'s' if len(down) == 1 else ''} down, " if down else ""
        d.parts.append(
            f"{kept}{'the 8 is re-spotted, ' if eight_in else ''}the table is open ({_cite('11.1')}); "
            f"the opponent has the cue ball in hand behind the head string ({_cite('11.2', '17.1')})"
        )
        if EIGHT in d.off:
            d.parts.append(f"the 8 off the table on the break does not lose the game ({_cite('25.1c')})")
        d.behind = True
        d.summary = f"break, FOUL {d.fouls[0].foul.value}"
    elif d.legal_break and eight_in:
        d.option = Option.EIGHT_ON_BREAK
        d.continues = True
        d.parts.append(
            f"the 8 on the break neither wins nor loses: the breaker re-racks or has the 8 re-spotted, "
            f"and shoots either way ({_cite('9.1')})"
        )
        d.summary = "break, 8 pocketed"
    elif d.legal_break and pocketed_balls:
        d.continues = True
        d.parts.append(f"the breaker keeps the table ({_cite('15.1')}); the table is open ({_cite('8.2', '14.1')})")
        d.summary = f"break, pots {_names(pocketed_balls)}"
    elif d.legal_break:
        d.parts.append(f"nothing pocketed, the turn passes ({_cite('15.1')}); the table is open ({_cite('8.2')})")
        d.summary = "break"
    else:
        d.summary = "illegal break"


def _the_call(d: _Draft, on8: bool) -> None:
    """ART 5.1, 24.1: the called ball and pocket; without a call, the first of the shooter's balls
    pocketed is taken as called (the 8 too, with a doubt: its pocket must be named)."""
    if d.called is None and not d.si.safety:
        first = next((p for p in d.pocketed if p.ball in d.mine and p.ball is not EIGHT), None)
        if first is None and on8 and EIGHT in d.pocket_of:
            first = next(p for p in d.pocketed if p.ball is EIGHT)
            d.doubts.append(
                f"no call was given: the 8 is taken as called in the {first.pocket.value} pocket it "
                f"entered; the rules need its pocket named ({_cite('24.1')})"
            )
        if first is not None:
            d.called = Called(first.ball, first.pocket)
    called = d.called
    if called is not None:
        d.call_words = (
            f"the {called.ball.value} called in the {called.pocket.value}"
            if d.call_given
            else f"no call given; the {called.ball.value} into the {called.pocket.value} taken as called "
            f"({_cite('5.1')}{', 24.1' if called.ball is EIGHT else ''})"
        )


def _loss_items(d: _Draft, on8: bool) -> tuple[str, ...]:
    """ART 25.1: the items by which the shooter loses the rack (a-f), in citation order."""
    st, pocket_of, called, g = d.st, d.pocket_of, d.called, d.st.groups[d.st.at_table]
    eight_in, eight_off = EIGHT in pocket_of, EIGHT in d.off
    if not (eight_off or eight_in):
        return ()
    items: list[str] = []
    if eight_off:
        items.append("c")
    if eight_in:
        if any(x.foul is EightBallFoul.SCRATCH for x in d.fouls):
            items.append("f")
        if d.foul:
            items.append("a")
        if not on8:
            remaining = (g.balls & st.balls) if g is not None else frozenset()
            if g is not None and remaining and remaining <= set(d.pocketed_balls):
                items.append("b")
            else:
                items.append("e")
        if (on8 or (called is not None and called.ball is EIGHT)) and (
            d.si.safety or called is None or called.ball is not EIGHT or called.pocket != pocket_of[EIGHT]
        ):
            items.append("d")
    return tuple(x for x in LOSS_ORDER if x in items)


def _loses_rack(d: _Draft) -> None:
    """ART 25.1: the rack is lost (the opponent wins it)."""
    pocket_of, called, loss = d.pocket_of, d.called, d.loss
    d.winner = 1 - d.st.at_table
    what = "; ".join(f"{LOSS_TEXT[x]} ({_cite('25.1' + x)})" for x in loss)
    lead = _foul_text(d.fouls) + ". " if d.foul else ""
    eight_in = EIGHT in pocket_of
    where = f" in the {pocket_of[EIGHT].value}" if eight_in else ""
    named = ""
    if "d" in loss:
        named = (
            " on a safety, with no pocket named"
            if d.si.safety
            else f"; the {called.pocket.value} was named"
            if called is not None and called.ball is EIGHT
            else "; no pocket was named for it"
        )
    d.parts.append(f"{lead}Loses the rack: the 8{where}{' off the table' if EIGHT in d.off else ''}{named}: {what}")
    d.summary = "loses the rack" + (f" ({d.fouls[0].foul.value})" if d.foul else "")


def _wins_rack(d: _Draft) -> None:
    """ART 1.3, 15.2, 24.1: the 8 pocketed in the named pocket with the group off the table."""
    d.winner = d.st.at_table
    pocket = d.pocket_of[EIGHT]
    where = f"in the named {pocket.value} pocket" if d.call_given else f"in the {pocket.value} ({d.call_words})"
    d.parts.append(
        f"Wins the rack: with his group off the table, the 8 pocketed {where} ({_cite('1.3', '15.2', '24.1')})"
    )
    d.summary = "wins the rack"


def _foul_in_play(d: _Draft, contacts: tuple[tuple[BallId, BallId], ...]) -> None:
    """ART 19.1, 19.2 (balls pocketed on a foul stay down), 23.2-23.4 (the cue ball touching a
    ball: the shooter's own are re-spotted), 17.1 (ball in hand)."""
    g, pocketed_balls = d.st.groups[d.st.at_table], d.pocketed_balls
    d.parts.append(_foul_text(d.fouls))
    own = [b for b in pocketed_balls if g is not None and b in g.balls]
    touching = any(d.f.cue_ball in pair for pair in contacts)
    if touching and own:
        d.respot.extend(own)
        d.parts.append(
            f"the cue ball was touching a ball: his {_names(own)} {'is' if len(own) == 1 else 'are'} "
            f"re-spotted, the opponent's balls stay down ({_cite('23.2', '23.3', '23.4')})"
        )
    elif pocketed_balls:
        d.parts.append(
            f"the {_names(pocketed_balls)} pocketed stay{'s' if len(pocketed_balls) == 1 else ''} "
            f"down ({_cite('19.1', '19.2')})"
        )
    d.parts.append(f"the opponent has the cue ball in hand ({_cite('17.1')})")
    d.summary = f"FOUL {d.fouls[0].foul.value}"


def _safety(d: _Draft) -> None:
    """ART 5.4 (19.1, 19.2): a safety announced ends the turn; what drops stays down, no group."""
    pocketed_balls = d.pocketed_balls
    d.parts.append(
        f"Safety announced: the turn ends ({_cite('5.4')})"
        + (
            f"; the {_names(pocketed_balls)} stay{'s' if len(pocketed_balls) == 1 else ''} down and "
            f"choose no group ({_cite('5.4', '19.1', '19.2')})"
            if pocketed_balls
            else ""
        )
    )
    d.summary = "safety"


def _pocketed_as_called(d: _Draft) -> bool:
    called = d.called
    return (
        called is not None
        and d.pocket_of.get(called.ball) is called.pocket
        and called.ball in d.mine
        and called.ball is not EIGHT
    )


def _legal_pot(d: _Draft) -> None:
    """ART 5.1, 15.1 (the called ball pocketed keeps the table), 5.2 (the others count), 14.2 (an
    open table: the group of the called ball)."""
    called, g, pocketed_balls = d.called, d.st.groups[d.st.at_table], d.pocketed_balls
    d.continues = True
    assert called is not None
    others = [b for b in pocketed_balls if b is not called.ball]
    text = (
        f"Legal: {d.call_words}, pocketed as called ({_cite('5.1', '15.1')})"
        if d.call_given
        else f"Legal: {d.call_words}; pocketed ({_cite('15.1')})"
    )
    if others:
        text += f"; the {_names(others)} also count{'s' if len(others) == 1 else ''} ({_cite('5.2')})"
    if g is None:
        d.group = Group.of(called.ball)
        assert d.group is not None
        text += f"; the table was open: he takes the {d.group.value} ({_cite('14.2')})"
    text += "; he keeps the table"
    d.parts.append(text)
    d.summary = f"pots {_names(pocketed_balls)}" + (f", takes {d.group.value}" if d.group else "")


def _turn_over(d: _Draft) -> None:
    """ART 15.1, 5.1 (no ball of his pocketed as called: the turn passes, no foul), 5.3, 19.2
    (what dropped stays down)."""
    called, pocket_of, pocketed_balls, call_words = d.called, d.pocket_of, d.pocketed_balls, d.call_words
    if called is not None and called.ball not in d.mine and d.call_given:
        whose = (
            f"the 8, which is played only after the group ({ART} 15.2)"
            if called.ball is EIGHT
            else "not one of his balls"
        )
        why = f"{call_words}: {whose}, it cannot be pocketed legally ({_cite('15.1')})"
    elif called is not None and called.ball in pocket_of:
        why = (
            f"{call_words}, but it went into the {pocket_of[called.ball].value}: loss of turn, no foul ({_cite('5.1')})"
        )
    elif called is not None:
        why = f"{call_words}, not pocketed ({_cite('15.1')})"
    elif pocketed_balls:
        why = f"none of the balls pocketed is his ({_cite('15.1')})"
    else:
        why = f"no ball pocketed ({_cite('15.1')})"
    text = f"Legal shot, turn over: {why}"
    if pocketed_balls:
        text += (
            f"; the {_names(pocketed_balls)} stay{'s' if len(pocketed_balls) == 1 else ''} down "
            f"({_cite('5.3', '19.2')})"
        )
    d.parts.append(text)
    d.summary = f"pots {_names(pocketed_balls)}, turn over" if pocketed_balls else "miss"


def _in_play(d: _Draft, contacts: tuple[tuple[BallId, BallId], ...]) -> None:
    """A shot after the break: the call (ART 5.1, 24.1), then the one case that applies: the rack
    lost (25.1) or won (15.2, 24.1), a foul (19, 23, 17.1), a safety (5.4), a legal pot (5.1, 15.1)
    or the turn over; balls off the table re-spotted (20.2) unless the rack ended."""
    st = d.st
    g = st.groups[st.at_table]
    on8 = st.on_eight(st.at_table)
    d.mine = (SOLIDS | STRIPES) if g is None else ({EIGHT} if on8 else g.balls)
    _the_call(d, on8)
    d.loss = _loss_items(d, on8)
    if d.loss:
        _loses_rack(d)
    elif EIGHT in d.pocket_of:
        _wins_rack(d)
    elif d.foul:
        _foul_in_play(d, contacts)
    elif d.si.safety:
        _safety(d)
    elif _pocketed_as_called(d):
        _legal_pot(d)
    else:
        _turn_over(d)
    if d.off and not d.loss:
        d.respot_off_table()
    if d.loss or d.winner is not None:
        d.respot = []


def decide(
    st: EightBallState,
    f: PoolShotFacts,
    si: EightBallShotInput,
    contacts: tuple[tuple[BallId, BallId], ...] = (),
    frozen_to: Mapping[BallId, Cushion] | None = None,
) -> Decision:
    """The verdict of the shot ``f`` played by ``st.at_table`` from ``st`` (the module docstring
    says how each article is read). ``contacts``: pairs of balls touching at the shot start
    (ART 23); ``frozen_to``: balls resting against a cushion at the shot start (the cushion of the
    ball the referee declares frozen, ART 22). Pure: the evidence review calls it again with
    perturbed events."""
    on_table = st.balls
    pocketed = tuple(p for p in f.pocketed if p.ball in on_table)
    ignored = [p.ball for p in f.pocketed if p.ball is not f.cue_ball and p.ball not in on_table]
    doubts: list[str] = []
    if ignored:
        doubts.append(
            f"the log pockets the {_names(sorted_balls(ignored))}, which the state does not have on the table; ignored"
        )
    off = tuple(b for b in f.object_balls_off_table if b in on_table)
    fouls = _judged_fouls(st, f, si, contacts, frozen_to)
    basis: list[tuple[Event, str]] = [b for x in fouls for b in x.basis]
    if f.first_contact_event is not None and all(e is not f.first_contact_event for e, _ in basis):
        basis.insert(0, (f.first_contact_event, f"first ball ({f.first_contact.value if f.first_contact else '?'})"))
    for p in pocketed:
        basis.append((p.event, f"{p.ball.value} into {p.pocket.value}"))
    d = _Draft(
        st,
        f,
        si,
        pocketed,
        off,
        fouls,
        basis,
        doubts,
        respot=list(off),  # ART 20.2: every ball off the table comes back
        called=si.called,
        call_given=si.called is not None,
    )
    if st.next_is_break:
        _break(d)
    else:
        _in_play(d, contacts)
    balls_after = (set(on_table) - set(d.pocketed_balls) - set(off)) | set(d.respot)
    reason = ". ".join(p[0].upper() + p[1:] for p in d.parts if p)
    return Decision(
        break_shot=st.next_is_break,
        first_ball=f.first_contact,
        fouls=tuple(fouls),
        legal_break=d.legal_break,
        pocketed=pocketed,
        off_table=off,
        called=d.called,
        call_given=d.call_given,
        continues=d.continues and not d.foul,
        group=d.group,
        rack_winner=d.winner,
        loss=d.loss,
        option=d.option,
        balls_after=frozenset(balls_after),
        respot=tuple(dict.fromkeys(d.respot)),
        ball_in_hand=d.foul and d.winner is None,
        behind_head_string=d.behind and d.winner is None,
        reason=reason,
        summary=d.summary,
        basis=tuple(basis),
        doubts=tuple(doubts),
    )
