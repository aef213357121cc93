"""A simulated shot: exact ball paths and events, the independent truth that the renderer draws.

Produced by the physics generator (:mod:`synth.physics.pooltool_shots`, pooltool, a data-generation
extra) and committed as ``.npz``; consumed by the renderer and by the golden tests. Times are
seconds from the start of the clip; positions are table millimetres (DESIGN.md frame).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from tracking.eventlog import event_from_dict, event_to_dict
from tracking.events import Event
from tracking.ids import BallId


@dataclass(frozen=True)
class SimShot:
    """``t_s`` (N,) strictly increasing, uniform (1 kHz by default); ``xy_mm`` (N, B, 2) ball centres
    in the order of ``balls``; ``z_mm`` (N, B) height of the ball centre above the cloth (a ball at
    rest on the cloth has z = r; a jumping or falling ball differs); ``on_table`` (N, B) False once a
    ball has left the table. ``events`` are the truth in event-log form (``shot`` numbers from 1,
    ``frame`` 0: the renderer recomputes frames at its fps). ``meta`` is free-form (seed, cue
    parameters, description, the expected call)."""

    table: str
    balls: tuple[BallId, ...]
    t_s: np.ndarray
    xy_mm: np.ndarray
    z_mm: np.ndarray
    on_table: np.ndarray
    events: tuple[Event, ...]
    meta: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        n, b = len(self.t_s), len(self.balls)
        if self.xy_mm.shape != (n, b, 2) or self.z_mm.shape != (n, b) or self.on_table.shape != (n, b):
            raise ValueError(
                f"SimShot arrays disagree: t_s {self.t_s.shape}, xy_mm {self.xy_mm.shape}, "
                f"z_mm {self.z_mm.shape}, on_table {self.on_table.shape} for {b} balls"
            )

    @property
    def duration_s(self) -> float:
        return float(self.t_s[-1] - self.t_s[0])

    def state_at(self, t_s: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Linearly interpolated (xy_mm (B, 2), z_mm (B,), on_table (B,)) at time ``t_s``."""
        t = float(np.clip(t_s, self.t_s[0], self.t_s[-1]))
        i = int(np.searchsorted(self.t_s, t, side="right") - 1)
        i = min(max(i, 0), len(self.t_s) - 2)
        a = (t - self.t_s[i]) / (self.t_s[i + 1] - self.t_s[i])
        xy = self.xy_mm[i] * (1 - a) + self.xy_mm[i + 1] * a
        z = self.z_mm[i] * (1 - a) + self.z_mm[i + 1] * a
        return xy, z, self.on_table[i] & self.on_table[i + 1]

    def save(self, path: str | Path) -> None:
        header = {
            "table": self.table,
            "balls": [b.value for b in self.balls],
            "events": [event_to_dict(e) for e in self.events],
            "meta": self.meta,
        }
        np.savez_compressed(
            path,
            header=np.frombuffer(json.dumps(header).encode("utf-8"), dtype=np.uint8),
            t_s=self.t_s.astype(np.float64),
            xy_mm=self.xy_mm.astype(np.float32),
            z_mm=self.z_mm.astype(np.float32),
            on_table=self.on_table.astype(bool),
        )

    @staticmethod
    def load(path: str | Path) -> SimShot:
        with np.load(path) as z:
            header = json.loads(bytes(z["header"]).decode("utf-8"))
            return SimShot(
                table=header["table"],
                balls=tuple(BallId.parse(b) for b in header["balls"]),
                t_s=z["t_s"].astype(np.float64),
                xy_mm=z["xy_mm"].astype(np.float64),
                z_mm=z["z_mm"].astype(np.float64),
                on_table=z["on_table"].astype(bool),
                events=tuple(event_from_dict(e, f"{Path(path).name}: event") for e in header["events"]),
                meta=header.get("meta", {}),
            )
