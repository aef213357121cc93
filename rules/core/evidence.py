"""Which events a call rests on, and whether any of them is in doubt.

A call rests on an event when the call would change without it, and on an order when it would
change with two events swapped. So, rather than each engine guessing which of its events matter,
the review re-judges the shot with the doubtful inputs perturbed, through the engine's own pure
decision function (any engine, any game):

- each event whose confidence is below ``JudgeConfig.confidence_threshold`` is dropped (alone, and
  all such events together): if the call changes, the call rests on it;
- each pair of events less than ``JudgeConfig.frame_period_s`` apart is swapped: if the call
  changes, it rests on an order finer than a frame (e.g. the third cushion and the second ball);
- a low-confidence ``shot_start`` puts what it says in doubt (which ball was struck, which balls
  were frozen or touching): the engine gives alternative readings (``start_alternatives``, each
  with the words "if ...") to compare;
- a ``shot_start`` whose balls were already moving when the recording began
  (:attr:`tracking.events.ShotStart.under_way`: a clip cut in mid-shot) puts every call of the
  shot in doubt: its stroke, and any contact, cushion or pocketing before the first frame, were
  not seen, and no re-judging of what was seen can say what they were;
- each ball whose name the shot start doubts (:attr:`tracking.events.ShotStart.name_doubts`: the
  detector's colour barely read it as itself) is swapped with the ball it was read as, in every
  event of the shot: if the call changes, it rests on that name (an eight-ball pot of "the 9"
  that was the 5 gives the other group); where it does not, a call whose own events name the
  ball (its first ball, its pot) still rests on a name the ball's look did not give, and is
  flagged too (the ball it was read as may be of the same kind, the ball it really is another:
  a ball set the classifier never saw);
- each ``near_miss`` (the cue ball passed within a hair of a ball with no contact found:
  :class:`tracking.events.NearMiss`) is read as a contact there: if the call changes, it rests on
  a contact too thin for the samples to show, or on its absence (a three-cushion miss by a
  fraction of a millimetre, a pool shot whose first ball was grazed).

A changed call sets ``needs_review``. The evidence lists the events the engine names as the basis
of its call, plus every event found to be critical, each with its role, confidence and doubt.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, replace

from rules.core.config import JudgeConfig
from rules.core.words import and_list
from tracking.events import BallBall, CushionHit, Event, NearMiss, OffTable, Pocketed, ShotStart
from tracking.ids import BallId

__all__ = ["Evidence", "Review", "describe_event", "review_shot"]


@dataclass(frozen=True)
class Evidence:
    """One event a call rests on: its ``kind`` (event-log spelling), time, frame and confidence,
    its ``role`` in the call, and ``doubt`` (why it puts the call in doubt) or None."""

    kind: str
    t_s: float
    frame: int
    confidence: float
    role: str
    doubt: str | None = None


@dataclass(frozen=True)
class Review:
    needs_review: bool
    evidence: tuple[Evidence, ...]
    summary: str | None  # one sentence on what is in doubt, or None


def describe_event(ev: Event) -> str:
    """A short neutral role for an event that the engine did not name."""
    if isinstance(ev, BallBall):
        return f"contact {ev.balls[0].value}-{ev.balls[1].value}"
    if isinstance(ev, CushionHit):
        return f"{ev.ball.value} on the {ev.cushion.value} cushion"
    if isinstance(ev, (OffTable, Pocketed)):
        return f"{ev.ball.value} {ev.kind.value.replace('_', ' ')}"
    if isinstance(ev, ShotStart):
        return f"shot start, cue ball {ev.cue_ball.value}"
    if isinstance(ev, NearMiss):
        return f"near miss {ev.balls[0].value}-{ev.balls[1].value} ({_gap_words(ev.gap_mm)})"
    return ev.kind.value.replace("_", " ")


def _gap_words(gap_mm: float) -> str:
    if gap_mm <= 0:
        return f"the sampled paths overlap by {-gap_mm:.1f} mm"
    return f"{gap_mm:.1f} mm apart"


def _as_contact(events: Sequence[Event], nm: NearMiss) -> list[Event]:
    """``events`` (time order) with the near miss read as a contact of its balls, in its place
    (its confidence the complement of the near miss's: how sure that they did touch)."""
    touched = BallBall(nm.t_s, nm.frame, nm.shot, 1.0 - nm.confidence, nm.balls, nm.pos_mm)
    i = next((k for k, e in enumerate(events) if e.t_s > nm.t_s), len(events))
    return [*events[:i], touched, *events[i:]]


def _names(ev: Event) -> tuple[BallId, ...]:
    """The balls an event names."""
    if isinstance(ev, (BallBall, NearMiss)):
        return ev.balls
    if isinstance(ev, (CushionHit, Pocketed, OffTable)):
        return (ev.ball,)
    return ()


def _swapped(events: Sequence[Event], a: BallId, b: BallId) -> list[Event]:
    """``events`` with balls ``a`` and ``b`` named each as the other."""

    def sw(x: BallId) -> BallId:
        return b if x is a else a if x is b else x

    out: list[Event] = []
    for ev in events:
        if isinstance(ev, (BallBall, NearMiss)):
            out.append(replace(ev, balls=(sw(ev.balls[0]), sw(ev.balls[1]))))
        elif isinstance(ev, (CushionHit, Pocketed, OffTable)):
            out.append(replace(ev, ball=sw(ev.ball)))
        else:
            out.append(ev)
    return out


def review_shot(
    decide: Callable[[Sequence[Event]], Hashable],
    events: Sequence[Event],
    basis: Sequence[tuple[Event, str]],
    config: JudgeConfig,
    describe_outcome: Callable[[Hashable], str],
    start: ShotStart | None = None,
    start_alternatives: Sequence[tuple[str, Callable[[], Hashable]]] = (),
    near_misses: Sequence[NearMiss] = (),
) -> Review:
    """Review the call ``decide(events)`` of one shot (``events``: its middle events, time order).

    ``basis``: (event, role) pairs the engine says its call rests on. ``describe_outcome`` names an
    outcome for the doubt text ("a point", "foul ball_off_table"). ``near_misses``: the shot's
    (:attr:`tracking.events.Shot.near_misses`), never among ``events``."""
    base = decide(events)
    thr, frame_s = config.confidence_threshold, config.frame_period_s
    doubts: dict[int, str] = {}  # id(event) -> doubt
    by_id: dict[int, Event] = {id(e): e for e in events}
    if start is not None:
        by_id[id(start)] = start
    summaries: list[str] = []
    roles = {id(e): r for e, r in basis}

    def role(ev: Event) -> str:
        return roles.get(id(ev), describe_event(ev))

    low = [e for e in events if e.confidence < thr]
    for ev in low:
        alt = decide([e for e in events if e is not ev])
        if alt != base:
            doubts[id(ev)] = (
                f"confidence {ev.confidence:.2f} below {thr:.2f}; without it the call would be {describe_outcome(alt)}"
            )
    if len(low) > 1 and not any(id(e) in doubts for e in low):
        alt = decide([e for e in events if e.confidence >= thr])
        if alt != base:
            for ev in low:
                doubts[id(ev)] = (
                    f"confidence {ev.confidence:.2f} below {thr:.2f}; without the "
                    f"{len(low)} such events the call would be {describe_outcome(alt)}"
                )
    for ev in low:
        if id(ev) in doubts:
            summaries.append(f"the call rests on the {role(ev)} (confidence {ev.confidence:.2f}, below {thr:.2f})")

    ordered = list(events)
    for i in range(len(ordered)):
        for j in range(i + 1, len(ordered)):
            a, b = ordered[i], ordered[j]
            gap = abs(b.t_s - a.t_s)
            if gap >= frame_s:
                break  # time order: every later event is farther
            swapped = list(ordered)
            swapped[i], swapped[j] = b, a
            alt = decide(swapped)
            if alt != base:
                for ev, other in ((a, b), (b, a)):
                    doubts.setdefault(
                        id(ev),
                        (
                            f"{gap * 1000:.1f} ms from the {role(other)}, under one frame "
                            f"({frame_s * 1000:.1f} ms); in the other order the call would be {describe_outcome(alt)}"
                        ),
                    )
                summaries.append(
                    f"the {role(a)} and the {role(b)} are {gap * 1000:.1f} ms apart, under one "
                    f"frame ({frame_s * 1000:.1f} ms), and their order decides the call"
                )

    if start is not None and start.confidence < thr:
        for condition, alternative in start_alternatives:
            alt = alternative()
            if alt != base:
                doubts.setdefault(
                    id(start),
                    (
                        f"confidence {start.confidence:.2f} below {thr:.2f}: {condition} the "
                        f"call would be {describe_outcome(alt)}"
                    ),
                )
                summaries.append(
                    f"the call rests on the shot start (confidence {start.confidence:.2f}): {condition} "
                    f"it would be {describe_outcome(alt)}"
                )

    if start is not None:
        for ball, nd in start.name_doubts.items():
            read = f"read {nd.read:.2f} as itself" + (
                f", {nd.rival_read:.2f} as the {nd.rival.value}" if nd.rival is not None else ""
            )
            naming = [e for e in events if ball in _names(e)]
            in_call = [e for e in naming if id(e) in roles]
            alt = decide(_swapped(events, ball, nd.rival)) if nd.rival is not None else base
            if nd.rival is not None and alt != base:
                for ev in in_call or naming or [start]:
                    doubts.setdefault(
                        id(ev),
                        f"the {ball.value}'s name is in doubt ({read}); read as the {nd.rival.value}, the call "
                        f"would be {describe_outcome(alt)}",
                    )
                summaries.append(
                    f"the call rests on the name of the {ball.value} ({read}): read as the {nd.rival.value} "
                    f"it would be {describe_outcome(alt)}"
                )
                continue
            # the call names the ball (its pot, its contact): whichever ball it was, the call
            # rests on a name its look did not give (its rival may be of the same kind, the ball
            # it really is another: a ball set the classifier never saw)
            for ev in in_call:
                doubts.setdefault(id(ev), f"the {ball.value}'s name is in doubt ({read}): the call names it")
            if in_call:
                summaries.append(f"the call rests on the name of the {ball.value} ({read})")

    if start is not None and start.under_way:
        moving = and_list([f"the {b.value}" for b in start.under_way])
        doubts[id(start)] = (
            f"{moving} already moving when the recording began: the stroke was not seen, and the "
            "call counts nothing from before the first frame"
        )
        summaries.append(
            f"the shot was under way when the recording began ({moving} already moving at "
            f"{start.t_s:.2f} s): its stroke, and any contact, cushion or pocketing before the first "
            "frame, were not seen"
        )

    for nm in near_misses:
        alt = decide(_as_contact(events, nm))
        if alt != base:
            by_id[id(nm)] = nm
            cue_name, other_name = nm.balls[0].value, nm.balls[1].value
            doubts[id(nm)] = (
                f"no contact seen ({_gap_words(nm.gap_mm)}); had they touched the call would be {describe_outcome(alt)}"
            )
            summaries.append(
                f"the {cue_name} passed the {other_name} at {nm.t_s:.2f} s with no contact seen ({_gap_words(nm.gap_mm)}); "
                f"had they touched the call would be {describe_outcome(alt)}"
            )

    rows: dict[int, Evidence] = {}
    for key in list(roles) + [k for k in doubts if k not in roles]:
        ev = by_id.get(key) or next(e for e, _ in basis if id(e) == key)
        rows[key] = Evidence(
            kind=ev.kind.value,
            t_s=ev.t_s,
            frame=ev.frame,
            confidence=ev.confidence,
            role=role(ev),
            doubt=doubts.get(key),
        )
    evidence = tuple(sorted(rows.values(), key=lambda r: (r.kind != "shot_start", r.t_s)))
    summary = None
    if doubts:
        uniq = list(dict.fromkeys(summaries))
        summary = "Needs review: " + "; ".join(uniq) + "."
    return Review(needs_review=bool(doubts), evidence=evidence, summary=summary)
