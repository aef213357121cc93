"""The committed synthetic shots (``sample_data/shots/*.npz``), listed and loaded without pooltool.

They are the physics truth of the synthetic world: exact trajectories at 1 kHz and truth events
made by ``tools/make_shots.py`` from pooltool (see :mod:`synth.physics.scenarios` for what each
shows). The renderer draws them; the golden tests compare the pipeline's events and calls with
their ``events`` and ``meta["shots"][k]["expected_call"]``.
"""

from __future__ import annotations

from pathlib import Path

from common.errors import TabletrackError
from synth.physics.trajectory import SimShot

SHOTS_DIR = Path(__file__).resolve().parents[2] / "sample_data" / "shots"


class ShotNotFoundError(TabletrackError):
    """No committed shot has the name asked for."""


def list_shots(directory: Path | None = None) -> list[Path]:
    """The committed shot files, sorted by name."""
    d = SHOTS_DIR if directory is None else Path(directory)
    return sorted(d.glob("*.npz"))


def shot_names(directory: Path | None = None) -> list[str]:
    return [p.stem for p in list_shots(directory)]


def load_shot(name: str, directory: Path | None = None) -> SimShot:
    """The committed shot ``name`` (file stem, e.g. ``"point_2a"``)."""
    d = SHOTS_DIR if directory is None else Path(directory)
    path = d / f"{name}.npz"
    if not path.is_file():
        raise ShotNotFoundError(
            f"no synthetic shot {name!r} in {d}: expected one of {', '.join(shot_names(d)) or '(none)'}"
        )
    return SimShot.load(path)
