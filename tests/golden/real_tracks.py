"""The real three-cushion tracks (``../shared/data/real-dev/three-cushion-tracks``) through
``events`` and ``judge`` as a user runs them (each shot file alone, no referee input): one row per
shot of what the program says. ``python tests/golden/real_tracks.py`` regenerates the committed
expected outputs (``tests/golden/expected/real_three_cushion.json``) on purpose, after a change
whose new outputs were checked against the labels; the golden test compares with that file."""

from __future__ import annotations

import json
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
DATA = REPO.parent / "shared" / "data" / "real-dev" / "three-cushion-tracks"
EXPECTED = Path(__file__).resolve().parent / "expected" / "real_three_cushion.json"


def shot_rows(data: Path = DATA) -> list[dict]:
    """Per labelled shot: the cue ball, point, cushions before the second ball, the cue ball's
    cushions, shots found, whether the call needs review, and whether the log is in time order."""
    sys.path.insert(0, str(REPO))
    from calibration.table import load_table
    from rules import judge_events
    from tabletrack.tables import table_spots
    from tracking.events import CushionHit, ShotStart
    from tracking.infer import infer_events
    from tracking.tracks_csv import read_tracks_csv

    table = load_table("carom")
    rows = []
    for lab in json.loads((data / "labels.json").read_text(encoding="utf-8")):
        events = infer_events(read_tracks_csv(data / lab["file"]), table)
        calls, _ = judge_events(events, "three-cushion", None, table=table_spots(table))
        start = next(e for e in events if isinstance(e, ShotStart))
        c = calls[0]
        rows.append(
            {
                "file": lab["file"],
                "cue_ball": start.cue_ball.value,
                "point": c.points > 0,
                "cushions_before_second": c.cushions_before_second_ball if c.second_ball is not None else None,
                "cue_cushions": sum(
                    1 for e in events if isinstance(e, CushionHit) and e.shot == 1 and e.ball is start.cue_ball
                ),
                "shots": len(calls),
                "needs_review": bool(c.needs_review),
                "foul": c.foul.value if c.foul else None,
                "time_order": all(a.t_s <= b.t_s for a, b in zip(events, events[1:])),
            }
        )
    return rows


if __name__ == "__main__":
    EXPECTED.write_text(json.dumps(shot_rows(), indent=1) + "\n", encoding="utf-8")
    print(f"written {EXPECTED}")
