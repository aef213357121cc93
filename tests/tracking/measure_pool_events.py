"""Measure pool and snooker event accuracy (the numbers reported for tracking/; not a test).

    python tests/tracking/measure_pool_events.py [--seeds N] [--fps 60 30]

For the pooltool shots of ``sample_data/pool_shots`` seen as a camera at each fps (1 mm noise,
balls gone into a pocket no longer detected): events inferred from exact identities
("ids known") and from the tracker fed the detector's classes (snooker reds all ``red``;
"tracked", and "tracked, 2 % misread" where each detection's class is another one with
probability 0.02). Per row: pocketings found (right ball and pocket) over the truth, false
pocketings, pocketing time error (median, max, ms), first contact right, object-ball cushion
contacts found within 0.1 s (truth counts jaw contacts, which are not detected), false ones,
identity swaps over observed states.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from pool_synth import EventScore, camera_frames, score_events, track, trajectories_from_frames

from calibration.table import load_table
from tracking.infer import infer_events

SHOTS = Path(__file__).resolve().parents[2] / "sample_data" / "pool_shots"


def main() -> None:
    from synth.physics.trajectory import SimShot

    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=2)
    ap.add_argument("--fps", type=float, nargs="+", default=[60.0, 30.0])
    ap.add_argument("--per-shot", action="store_true")
    args = ap.parse_args()
    shots = [SimShot.load(p) for p in sorted(SHOTS.glob("*.npz"))]
    print(
        "| data | fps | runs | pockets found | false pockets | pocket time median / max ms | first contact right | "
        "object-ball cushions found | false cushions | identity swaps | s/run |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for mode in ("ids known", "tracked", "tracked, 2 % misread"):
        for fps in args.fps:
            tot = EventScore()
            swaps = observed = runs = 0
            t0 = time.time()
            for shot in shots:
                table = load_table(shot.table)
                for seed in range(args.seeds):
                    frames = camera_frames(shot, fps, 1.0, seed)
                    if mode == "ids known":
                        trajs = trajectories_from_frames(frames, shot.balls)
                    else:
                        res = track(frames, shot.balls, table, seed, misread=0.02 if "misread" in mode else 0.0)
                        trajs = res.trajectories
                        swaps += res.swaps
                        observed += res.observed
                    sc = score_events(list(shot.events), infer_events(trajs, table))
                    if args.per_shot:
                        print(f"  {shot.meta.get('name')} {mode} {fps:.0f} seed {seed}: {vars(sc)}")
                    tot.add(sc)
                    runs += 1
            e = np.abs(np.array(tot.pocket_time_errors_s)) * 1000.0
            tm = f"{np.median(e):.1f} / {e.max():.1f}" if len(e) else "-"
            sw = f"{swaps}/{observed}" if mode != "ids known" else "-"
            print(
                f"| {mode} | {fps:.0f} | {runs} | {tot.pockets_found}/{tot.pockets_truth} | {tot.pockets_false} | {tm} | "
                f"{tot.first_contact_right}/{tot.first_contact_truth} | {tot.ob_cushions_found}/{tot.ob_cushions_truth} | "
                f"{tot.ob_cushions_false} | {sw} | {(time.time() - t0) / runs:.2f} |"
            )


if __name__ == "__main__":
    main()
