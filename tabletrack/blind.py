"""Blind spells: a ball that moved while the camera did not see it, the table being in view.

Contract: :class:`BlindLog` takes each analysed frame's tracker states (``add``, in frame order)
and keeps, per ball, the runs of frames in which the tracker carried the ball without seeing it
(``observed`` false: bridged from its last motion). A run that ends with the ball seen again is a
:class:`BlindSpell` when it lasted at least ``min_s`` and the ball reappeared at least ``min_mm``
from where it was last seen; a run that begins or ends by a pocket is none (a ball dropping, or
bouncing in the pocket's mouth, which the pocket logic reads), nor is one never closed (a ball
gone: pocketed or off the table). :meth:`BlindLog.touching` gives the spells that overlap a time
span, for :class:`tabletrack.shot_judge.ShotJudge` to mark the calls of those shots for review.

Why: the event inference finds a contact or a cushion from the paths on either side of it; while
a moving ball is unseen for several frames (a player's arm or body over the table, a broadcast's
cut to a close-up that still shows cloth, a ball lost in its own streak) whatever it met there
has no path to be found from, and a call made as though nothing happened is a confident guess.
Nine-ball dev Clip5 with one second of its frames replaced by a 2x close-up of the same table:
the cue ball unseen from 3.96 to 5.00 s while it moved 310 mm, and the call "miss" made without
review. A ball barely moved (its centre's noise, a ball jostled in a rack) or unseen for a frame
or two (a cue passing over it) is not a spell: 0.2 s and a ball's diameter by default.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from tracking.ids import BallId
from tracking.pockets import PocketZone, near_pocket
from tracking.tracker import BallState

__all__ = ["BlindLog", "BlindSpell"]


@dataclass(frozen=True)
class BlindSpell:
    """``ball`` was not seen from ``t0_s`` (its last sighting, frame ``first_frame``) to ``t1_s``
    (seen again, frame ``last_frame``), and came back ``moved_mm`` from where it was."""

    ball: BallId
    first_frame: int
    last_frame: int
    t0_s: float
    t1_s: float
    moved_mm: float

    def describe(self) -> str:
        return (
            f"the {self.ball.value} was not seen from {self.t0_s:.2f} to {self.t1_s:.2f} s while it moved "
            f"{self.moved_mm:.0f} mm (what it met then is not known)"
        )


class BlindLog:
    """See the module docstring. ``zones``: the table's pockets (none on a carom table);
    ``pocket_margin_mm``: how near a pocket's drop circle a sighting counts as by the pocket."""

    def __init__(
        self,
        zones: Sequence[PocketZone] = (),
        min_s: float = 0.2,
        min_mm: float = 61.5,
        pocket_margin_mm: float = 30.0,
    ) -> None:
        if min_s < 0 or min_mm < 0:
            raise ValueError(f"blind spells: expected min_s >= 0 and min_mm >= 0, got {min_s} and {min_mm}")
        self.zones = tuple(zones)
        self.min_s, self.min_mm, self.pocket_margin_mm = float(min_s), float(min_mm), float(pocket_margin_mm)
        self.spells: list[BlindSpell] = []
        # per ball: its last sighting (frame, t_s, x_mm, y_mm) and whether it is unseen since
        self._seen: dict[BallId, tuple[int, float, float, float]] = {}
        self._unseen: set[BallId] = set()

    def add(self, states: Iterable[BallState]) -> None:
        """One analysed frame's states (any order within the frame; frames in order)."""
        for s in states:
            if not s.observed:
                if s.ball in self._seen:
                    self._unseen.add(s.ball)
                continue
            last = self._seen.get(s.ball)
            if last is not None and s.ball in self._unseen:
                self._close(s, last)
            self._unseen.discard(s.ball)
            self._seen[s.ball] = (s.frame, s.t_s, s.x_mm, s.y_mm)

    def _close(self, s: BallState, last: tuple[int, float, float, float]) -> None:
        frame0, t0, x0, y0 = last
        moved = math.hypot(s.x_mm - x0, s.y_mm - y0)
        if s.t_s - t0 < self.min_s or moved < self.min_mm:
            return
        if self.zones and any(
            near_pocket(self.zones, p, self.pocket_margin_mm) is not None for p in ((x0, y0), (s.x_mm, s.y_mm))
        ):
            return
        self.spells.append(BlindSpell(s.ball, frame0, s.frame, t0, s.t_s, moved))

    def touching(self, t0_s: float, t1_s: float) -> list[BlindSpell]:
        """The spells that overlap ``t0_s`` .. ``t1_s``."""
        return [sp for sp in self.spells if sp.t1_s >= t0_s and sp.t0_s <= t1_s]
