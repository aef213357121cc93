"""Benchmark: the real three-cushion trajectories re-sampled as another recorder would write them,
to catch a result that holds on this recorder's pace only.

The 60 dev shots come from one tracking system (about 50 Hz while a ball moves, a resting ball
reported at the start and then when it moves); what is held back is more of the same kind, but a
club's or another broadcaster's recorder may report slower, noisier, or with gaps. Each shot's
rows are changed as the variant says, written as a tracks CSV and run through ``events`` and
``judge`` as ``bench/real.py`` runs the originals (mid-game referee input from shot 1 on):

- ``noise`` / ``noise2``: each position moved by Gaussian noise of sigma 1.5 / 2 mm;
- ``drop`` / ``drop30``: 15 / 30 % of the reports dropped at random (a ball's first and last kept);
- ``rate25`` / ``rate17``: a recorder that reports a ball at most every 35 / 55 ms (~25 / ~17 Hz
  while it moves; a ball's last report kept);
- ``mirror``: the table turned 180 degrees (x -> length - x, y -> width - y);
- ``offset``: every time 3.7 s later (a recording that does not start at 0);
- ``late``: a recording that begins 0.25 s after the stroke, in mid-shot: every ball reported at
  that moment (a moving one where its reports around it put it, a resting one at its last) and
  the rest as recorded. Where more than the cue ball moves at that first report the shot is read
  as under way and its call flagged (``ShotStart.under_way``); where the cue ball alone moves, the
  opening is read as the stroke, as this recorder's reports begin (DESIGN.md), and a cushion it
  met before is lost: the figure to watch is the wrong calls without review.

Per variant: points right and cushions before the second ball right against labels.json, and the
wrong calls made without ``needs_review``. Each variant's randomness is seeded by the shot index,
so the figures repeat. Writes the "Real trajectories, re-sampled" section of BENCHMARKS.md between
``<!-- real-tracks-variants:begin -->`` and ``<!-- real-tracks-variants:end -->`` (about a minute;
not part of ``.ci/run``).

    python bench/real_tracks_variants.py [--out BENCHMARKS.md | -]
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import real  # bench/real.py, beside this file
from sections import publish_section  # bench/sections.py, beside this file

BEGIN = "<!-- real-tracks-variants:begin -->"
END = "<!-- real-tracks-variants:end -->"
VARIANTS = ("original", "noise", "noise2", "drop", "drop30", "rate25", "rate17", "mirror", "offset", "late")
#: s after the first report at which the ``late`` recorder begins
LATE_S = 0.25
#: one report (t_s, ball, x_mm, y_mm)
Row = tuple[float, str, float, float]


def resample(rows: list[Row], variant: str, rng: np.random.Generator, length_mm: float, width_mm: float) -> list[Row]:
    """``rows`` (time order) as the recorder of ``variant`` would write them (module docstring)."""
    if variant == "original":
        return list(rows)
    if variant in ("noise", "noise2"):
        sigma = 1.5 if variant == "noise" else 2.0
        return [(t, b, x + rng.normal(0.0, sigma), y + rng.normal(0.0, sigma)) for t, b, x, y in rows]
    last = {b: i for i, (_, b, _, _) in enumerate(rows)}
    first = {b: i for i, (_, b, _, _) in reversed(list(enumerate(rows)))}
    if variant in ("drop", "drop30"):
        share = 0.15 if variant == "drop" else 0.30
        return [r for i, r in enumerate(rows) if i in (first[r[1]], last[r[1]]) or rng.random() >= share]
    if variant in ("rate25", "rate17"):
        gap = 0.035 if variant == "rate25" else 0.055
        kept: dict[str, float] = {}
        out = []
        for i, (t, b, x, y) in enumerate(rows):
            if b not in kept or t - kept[b] >= gap or i == last[b]:
                out.append((t, b, x, y))
                kept[b] = t
        return out
    if variant == "mirror":
        return [(t, b, length_mm - x, width_mm - y) for t, b, x, y in rows]
    if variant == "offset":
        return [(t + 3.7, b, x, y) for t, b, x, y in rows]
    if variant == "late":
        return _late(rows)
    raise ValueError(f"unknown variant {variant!r}: expected one of {', '.join(VARIANTS)}")


def _late(rows: list[Row]) -> list[Row]:
    """``rows`` as a recorder that began ``LATE_S`` after the first report would write them: each
    ball reported at its start (between two reports under 50 ms apart, a moving ball, where they
    put it; else where it was last reported) and every report after it."""
    t0 = rows[0][0] + LATE_S
    start: list[Row] = []
    for ball in dict.fromkeys(b for _, b, _, _ in rows):
        mine = [(t, x, y) for t, b, x, y in rows if b == ball]
        before = [m for m in mine if m[0] <= t0]
        after = [m for m in mine if m[0] > t0]
        if not before:
            continue  # first reported after the start: as recorded
        (ta, xa, ya) = before[-1]
        if after and after[0][0] - ta <= 0.05:
            tb, xb, yb = after[0]
            w = (t0 - ta) / (tb - ta)
            xa, ya = xa + w * (xb - xa), ya + w * (yb - ya)
        start.append((t0, ball, xa, ya))
    return start + [r for r in rows if r[0] > t0]


def run_variant(variant: str, folder: Path, work: Path) -> dict[str, int]:
    """Every labelled shot of ``folder`` through ``variant``: counts of shots, points right,
    shots with a second object ball and their cushion counts right, confident wrong calls."""
    from calibration.table import load_table
    from tracking.infer import infer_events
    from tracking.tracks_csv import read_tracks_csv

    table = load_table("carom")
    labels = json.loads((folder / "labels.json").read_text())
    n = {"shots": 0, "points": 0, "with2": 0, "cbs": 0, "confident_wrong": 0, "flagged": 0, "errors": 0}
    for lab in labels:
        with (folder / lab["file"]).open(newline="") as f:
            rows = [(float(r["t"]), r["ball"], float(r["x_mm"]), float(r["y_mm"])) for r in csv.DictReader(f)]
        rng = np.random.default_rng(int(lab["index"]))
        out = resample(rows, variant, rng, table.length_mm, table.width_mm)
        path = work / f"{variant}_{lab['index']:03d}.csv"
        path.write_text("t,ball,x_mm,y_mm\n" + "".join(f"{t:.4f},{b},{x:.2f},{y:.2f}\n" for t, b, x, y in out))
        n["shots"] += 1
        try:
            events = infer_events(read_tracks_csv(path), table)
            res = real._judge_shot_events(events, None if lab["index"] == 0 else real.MID_GAME)
        except Exception:  # a failure of the pipeline is a result to report
            n["errors"] += 1
            continue
        c = res["calls"][0] if res["calls"] else None
        right = bool(c and c.points > 0) == bool(lab["point"])
        n["points"] += right
        n["confident_wrong"] += (not right) and not (c and c.needs_review)
        n["flagged"] += bool(c and c.needs_review)
        if lab.get("second_object_ball"):
            n["with2"] += 1
            n["cbs"] += c is not None and c.cushions_before_second_ball == lab["cushions_before_second"]
    return n


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=str(real.REPO / "BENCHMARKS.md"), help="write the section here ('-': only print)")
    args = ap.parse_args(argv)
    folder = real.REAL / "three-cushion-tracks"
    if not (folder / "labels.json").is_file():
        print(f"absent: {folder}: nothing to re-sample")
        return 0
    t0 = time.perf_counter()
    rows = []
    with tempfile.TemporaryDirectory(prefix="real_tracks_variants_") as tmp:
        for v in VARIANTS:
            n = run_variant(v, folder, Path(tmp))
            rows.append(
                [
                    v,
                    f"{n['points']}/{n['shots']}",
                    f"{n['cbs']}/{n['with2']}",
                    str(n["confident_wrong"]),
                    f"{n['flagged']}/{n['shots']}",
                    str(n["errors"]),
                ]
            )
            print(f"{v}: points {n['points']}/{n['shots']}, cushions {n['cbs']}/{n['with2']}", flush=True)
    head = [
        "variant",
        "points right",
        "cushions before the 2nd ball right",
        "wrong calls without review",
        "calls flagged for review",
        "errors",
    ]
    body = "\n".join(
        [
            "## Real trajectories, re-sampled",
            "",
            f"Generated by `python bench/real_tracks_variants.py` on {time.strftime('%Y-%m-%d')} in "
            f"{time.perf_counter() - t0:.0f} s. The 60 real three-cushion shots (three-cushion-tracks) as another "
            "recorder would write them: noisier (1.5 and 2 mm), with 15 and 30 % of the reports dropped, reporting at most "
            "every 35 ms (~25 Hz) or 55 ms (~17 Hz), on the table turned 180 degrees, with its clock 3.7 s on, "
            f"begun {LATE_S} s after the stroke (`late`: a call resting on what came before must be flagged) "
            "(see the script's docstring); through `events` and `judge` as bench/real.py runs the originals.",
            "",
            real.md_table(head, rows),
            "",
        ]
    )
    publish_section(body, args.out, BEGIN, END, "re-sampled real-trajectories")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
