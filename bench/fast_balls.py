"""Benchmark: fast balls at broadcast frame rates, on rendered clips with a true shutter time.

A real broadcast runs at 25 or 30 fps, and a ball faster than a few metres a second is a streak
there, several diameters long and fainter than the ball (issue 13, item 3: a moving ball is never
lost on open cloth for more than a frame). The sample clips are at 30 and 60 fps; this script
renders every pool and snooker sample's shot again, with the same camera, light, shutter fraction
(the exposure is ``shutter_fraction / fps``: 13-24 ms at 25 fps), hand and seed, at 25 and at 30
fps (``tools/make_pool_samples.py``'s row with another frame rate), into a temporary folder, runs
``analyze`` on each as a user would (the game of the clip, its referee input), and reports against
the physics truth:

- every run of more than one analysed frame in which a moving ball went unseen on open cloth
  (:func:`tracking.unseen_runs.lost_in_tracks_csv`, as ``bench/real.py`` counts them on the real
  clips), with the fastest ball's speed in the clip;
- the pocketed balls, the first contact and the calls as ``bench/pool.py`` compares them.

Writes the "Fast balls at 25 and 30 fps" section of BENCHMARKS.md between
``<!-- fast-balls:begin -->`` and ``<!-- fast-balls:end -->``. About four minutes (18 renders and
analyses); not part of ``.ci/run``.

    python bench/fast_balls.py [--out BENCHMARKS.md | -] [--clips NAME ...]
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tools"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

BEGIN = "<!-- fast-balls:begin -->"
END = "<!-- fast-balls:end -->"
FRAME_RATES = (25.0, 30.0)


def top_speed_mm_s(truth_path: Path) -> float:
    """The fastest any ball moved between two consecutive frames of the truth."""
    import json

    d = json.loads(truth_path.read_text(encoding="utf-8"))
    best = 0.0
    prev: dict[str, tuple[float, float, float]] = {}
    for fr in d["frames"]:
        for b, s in fr["balls"].items():
            if not s.get("on_table", True):
                prev.pop(b, None)
                continue
            x, y = s["mm"][0], s["mm"][1]
            if b in prev:
                t0, x0, y0 = prev[b]
                if fr["t"] > t0:
                    best = max(best, float(np.hypot(x - x0, y - y0)) / (fr["t"] - t0))
            prev[b] = (fr["t"], x, y)
    return best


def bench_row(row: Any, fps: float, work: Path) -> dict:
    """Render ``row`` (a :class:`make_pool_samples.PoolClipRow`) at ``fps``, analyse it, compare."""
    import make_pool_samples as mps

    from calibration.table import load_table
    from tabletrack.pipeline import AnalyzeOptions, analyze_video
    from tabletrack.truth_eval import ClipTruth, first_contacts, pocketings, pool_call_key
    from tracking.unseen_runs import lost_in_tracks_csv

    base = row.name.rsplit("_", 1)[0]
    name = f"{base}_{row.size[1]}p{fps:g}"
    r = dataclasses.replace(row, name=name, fps=fps)
    mps.render_row(r, work)
    video = work / f"{name}.mp4"
    truth = ClipTruth.load(work / f"{name}.truth.json")
    table = load_table(truth.table)
    res = analyze_video(
        video, AnalyzeOptions(game=truth.game, table=table, out_dir=work / name, annotated_video=False, progress=False)
    )
    lost = lost_in_tracks_csv(Path(res.out_dir) / "tracks.csv", table)
    found, true = pocketings(res.events), pocketings(truth.events)
    return {
        "clip": base,
        "fps": fps,
        "exposure_ms": 1000.0 * row.shutter_fraction / fps,
        "top_speed": top_speed_mm_s(work / f"{name}.truth.json"),
        "lost": [str(x) for x in lost],
        "pockets": f"{len([p for p in true if p in found])}/{len(true)} (+{len([p for p in found if p not in true])})",
        "first_contact_ok": first_contacts(res.events) == first_contacts(truth.events),
        "calls_ok": [pool_call_key(c) for c in res.calls] == [pool_call_key(c) for c in truth.calls()],
        # a wrong call made with needs_review is a call the referee is asked to look at, not a confident one
        "reviewed": all(c.needs_review for c in res.calls) and bool(res.calls),
    }


def table(rows: list[dict]) -> str:
    from real import md_table  # bench/real.py

    head = [
        "shot",
        "fps",
        "exposure ms",
        "fastest ball m/s (truth)",
        "moving ball unseen > 1 frame on open cloth (ball@frame: frames)",
        "pocketed right / true (extra)",
        "first contact",
        "calls",
    ]
    return md_table(
        head,
        [
            [
                r["clip"],
                f"{r['fps']:g}",
                f"{r['exposure_ms']:.0f}",
                f"{r['top_speed'] / 1000.0:.1f}",
                ", ".join(r["lost"]) or "none",
                r["pockets"],
                "right" if r["first_contact_ok"] else "WRONG",
                "right" if r["calls_ok"] else ("WRONG (review)" if r["reviewed"] else "WRONG"),
            ]
            for r in rows
        ],
    )


def main(argv: list[str] | None = None) -> int:
    import make_pool_samples as mps
    from sections import publish_section  # bench/sections.py

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=str(REPO / "BENCHMARKS.md"), help="write the section here ('-': only print)")
    ap.add_argument("--clips", nargs="*", help="sample clip names (default: every pool and snooker sample)")
    args = ap.parse_args(argv)
    rows_in = [c for c in mps.CLIPS if not args.clips or c.name in set(args.clips)]
    t0 = time.perf_counter()
    rows = []
    with tempfile.TemporaryDirectory(prefix="fast_balls_") as tmp:
        for row in rows_in:
            for fps in FRAME_RATES:
                r = bench_row(row, fps, Path(tmp))
                rows.append(r)
                print(
                    f"{r['clip']} {fps:g} fps: lost {', '.join(r['lost']) or 'none'}, pockets {r['pockets']}, "
                    f"first contact {'ok' if r['first_contact_ok'] else 'WRONG'}, calls {'ok' if r['calls_ok'] else 'WRONG'}",
                    flush=True,
                )
    n_lost = sum(bool(r["lost"]) for r in rows)
    body = "\n".join(
        [
            "## Fast balls at 25 and 30 fps",
            "",
            f"Generated by `python bench/fast_balls.py` on {time.strftime('%Y-%m-%d')} in "
            f"{time.perf_counter() - t0:.0f} s. Every pool and snooker sample's shot rendered again at 25 and 30 fps "
            "(same camera, light, hand and seed; the exposure is the row's shutter fraction of a frame), analysed as "
            "`tabletrack analyze` does, against the physics truth: runs of more than one analysed frame in which a "
            "moving ball went unseen on open cloth (issue 13: never), pocketings, first contacts, calls.",
            "",
            table(rows),
            "",
            f"Clips with a moving ball unseen for more than a frame on open cloth: {n_lost}/{len(rows)}; first contact "
            f"right {sum(r['first_contact_ok'] for r in rows)}/{len(rows)}; calls right "
            f"{sum(r['calls_ok'] for r in rows)}/{len(rows)}, wrong without review "
            f"{sum(not r['calls_ok'] and not r['reviewed'] for r in rows)}.",
            "",
        ]
    )
    publish_section(body, args.out, BEGIN, END, "fast-balls")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
