"""Regenerate the committed synthetic three-cushion shots (``sample_data/shots/*.npz``) with pooltool.

pooltool is a data-generation extra, not a dependency of the project: run this with the
simulation venv made by ``tools/setup_sim_env.sh``::

    PYTHONPATH=. .venv-sim/bin/python tools/make_shots.py            # all scenarios
    PYTHONPATH=. .venv-sim/bin/python tools/make_shots.py kiss break_shot --plot /tmp/views

Every scenario has a fixed seed (:mod:`synth.physics.scenarios`), so a run reproduces the committed
files on the same pooltool version and platform (checked: a venv made afresh by
``tools/setup_sim_env.sh`` wrote byte-identical files). The whole set of 20 shots takes about
40 s on one core of the development machine once numba's cache is warm (a fresh venv adds ~30 s
of compilation); each line printed gives a shot's clip length, tries and time. After a run,
``INDEX.md`` in the output folder is rewritten from every ``.npz`` there.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("names", nargs="*", help="scenarios to make (default: all)")
    ap.add_argument("--out", type=Path, default=REPO / "sample_data" / "shots", help="output folder")
    ap.add_argument("--plot", type=Path, default=None, help="also write a top-view PNG of each shot here")
    ap.add_argument("--list", action="store_true", help="list the scenarios and exit")
    args = ap.parse_args(argv)

    sys.path.insert(0, str(REPO))
    from calibration.table import load_table
    from synth.physics.scenarios import SCENARIOS, ScenarioSearchError, scenario

    if args.list:
        for sc in SCENARIOS:
            print(f"{sc.name:28s} seed {sc.seed:5d}  {sc.description}")
        return 0
    try:
        chosen = [scenario(n) for n in args.names] if args.names else list(SCENARIOS)
    except ScenarioSearchError as e:
        print(f"make_shots: {e}", file=sys.stderr)
        return 2

    from synth.physics.pooltool_shots import StrokeSimulator, assemble_clip
    from synth.physics.scenarios import Builder, search
    from synth.physics.topview import save_top_view
    from tracking.ids import CAROM_BALLS

    table = load_table("carom")
    try:
        sim = StrokeSimulator(table)
    except ImportError as e:
        print(
            f"make_shots: pooltool is not importable here ({e}); make its venv with "
            f"tools/setup_sim_env.sh and run this with that venv's python",
            file=sys.stderr,
        )
        return 2
    builder = Builder(sim)
    args.out.mkdir(parents=True, exist_ok=True)
    if args.plot is not None:
        args.plot.mkdir(parents=True, exist_ok=True)
    t_all = time.perf_counter()
    failed = 0
    for sc in chosen:
        t0 = time.perf_counter()
        try:
            res = search(sc, builder)
        except ScenarioSearchError as e:
            print(f"make_shots: {e}", file=sys.stderr)
            failed += 1
            continue
        meta = {
            "name": sc.name,
            "brief_item": sc.brief_item,
            "description": sc.description,
            "seed": sc.seed,
            "tries": res.tries,
            "preferred_outcome_met": res.preferred,
            # provenance as written in the committed data (the path before issue 9): reruns stay byte-identical
            "generator": "vision.synth.scenarios via tools/make_shots.py",
        }
        shot = assemble_clip(res.strokes, table, CAROM_BALLS, meta, sim.physics_description())
        path = args.out / f"{sc.name}.npz"
        shot.save(path)
        if args.plot is not None:
            save_top_view(shot, args.plot / f"{sc.name}.png", table)
        calls = [m["expected_call"] for m in shot.meta["shots"]]
        summary = "; ".join(
            f"shot {c['shot']}: {'POINT ' + c['pattern'] if c['point'] else 'miss'}, cue {c['cue_ball']}, "
            f"hit {','.join(c['object_balls_hit']) or '-'}, cushions before 2nd {c['cushions_before_second']}, "
            f"total {c['cue_cushions_total']}, margin {_ms(c['margin_ms'])}"
            + (" ms" if c["margin_ms"] is not None else "")
            for c in calls
        )
        print(
            f"{sc.name:26s} {shot.duration_s:5.2f} s  tries {res.tries:3d}  "
            f"{time.perf_counter() - t0:5.1f} s  {path.stat().st_size // 1024:4d} KB  {summary}",
            flush=True,
        )
    write_index(args.out)
    print(f"total {time.perf_counter() - t_all:.0f} s", flush=True)
    return 1 if failed else 0


def write_index(folder: Path) -> None:
    """``INDEX.md``: one row per shot file in ``folder``, read back from the files themselves."""
    from synth.physics.shots import list_shots, load_shot

    rows = [
        "# Synthetic three-cushion shots",
        "",
        "Made by `tools/make_shots.py` with pooltool (see `synth/physics/scenarios.py`); load with",
        "`synth.physics.shots.load_shot(name)`. Times in seconds; `margin` = second-ball contact minus",
        "third counted cushion (ms). Truth event `frame` is 0: recompute it at the video's fps.",
        "",
        "| name | clip s | shot | cue | balls hit | cushions before 2nd / total | call | margin ms | kiss | pooltool | description |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for p in list_shots(folder):
        shot = load_shot(p.stem, folder)
        for m in shot.meta["shots"]:
            c = m["expected_call"]
            call = f"point {c['pattern']}" if c["point"] else "miss"
            pt_call = {True: "point", False: "miss", None: "-"}[m["pooltool_is_point"]]
            rows.append(
                f"| {p.stem} | {shot.duration_s:.2f} | {m['shot']} | {c['cue_ball']} | "
                f"{', '.join(c['object_balls_hit']) or '-'} | {c['cushions_before_second']} / "
                f"{c['cue_cushions_total']} | {call} | {_ms(c['margin_ms'])} | {'yes' if c['kiss_first_ball'] else ''} | {pt_call} | "
                f"{shot.meta['description'] if m['shot'] == 1 else ''} |"
            )
    (folder / "INDEX.md").write_text("\n".join(rows) + "\n", encoding="utf-8")


def _ms(v: float | None) -> str:
    return "-" if v is None else f"{v:+.2f}"


if __name__ == "__main__":
    raise SystemExit(main())
