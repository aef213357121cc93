"""Benchmark rows of the pool and snooker sample clips (``sample_videos/pool/``), for bench/run.py.

Per clip, analysed as ``tabletrack analyze --game <the clip's game>`` does (trained YOLO model, no
annotated video): pocketings found (same shot, ball and pocket) and extra, pocket-time error, the
cue ball's first contact, the calls against the truth's calls, the ball-centre error of observed
samples, identity accuracy (an observed sample of ball B within one ball radius of B's true
centre, over the observed samples within a radius of any true ball), and speed as ratios of the
same run (analysis fps ÷ decode-only fps, ÷ the video's fps). The detector's own figures
(mAP50, identity on held-out synthetic views and on the real photos) are in models/MODEL_CARD.md
(``python -m models.evaluate``; its held-out set is generated, not committed).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from calibration.table import load_table
from tabletrack.pipeline import AnalyzeOptions, analyze_video
from tabletrack.truth_eval import (
    ClipTruth,
    first_contacts,
    off_table,
    pocket_time_errors_ms,
    pocketings,
    pool_call_key,
    position_errors_mm,
)
from tracking.unseen_runs import lost_in_tracks_csv

if TYPE_CHECKING:
    from tabletrack.annotate import BallTrack


def identity_accuracy(tracks: Sequence[BallTrack], truth: ClipTruth, radius_mm: float) -> tuple[int, int]:
    """(right, judged): observed samples near a true ball, and of them those near their own ball
    (a snooker red near any true red: which red is which is the tracker's naming)."""
    right = judged = 0
    for tr in tracks:
        for f, x, y, obs in zip(tr.frames, tr.x_mm, tr.y_mm, tr.observed):
            if not obs or f >= len(truth.frames):
                continue
            balls = truth.frames[int(f)]["balls"]
            near = [
                name
                for name, b in balls.items()
                if b.get("on_table", True) and np.hypot(x - b["mm"][0], y - b["mm"][1]) <= radius_mm
            ]
            if not near:
                continue
            judged += 1
            name = tr.ball.value
            right += any(n.startswith("red_") for n in near) if name.startswith("red_") else name in near
    return right, judged


def bench_pool_clip(video: Path, work: Path, decode_only_fps: Callable[[Path], float]) -> dict:
    truth = ClipTruth.load(video.with_name(video.stem + ".truth.json"))
    table = load_table(truth.table)
    dec = decode_only_fps(video)
    res = analyze_video(
        video,
        AnalyzeOptions(game=truth.game, table=table, out_dir=work / video.stem, annotated_video=False, progress=False),
    )
    an_fps = res.stats.frames / res.stats.analysis_s
    # the same clip with the whole model on every frame (no guided frames): what the guided
    # detector of vision/guided.py saves, and whether it changes anything found
    full = analyze_video(
        video,
        AnalyzeOptions(
            game=truth.game,
            table=table,
            out_dir=work / (video.stem + "_full"),
            annotated_video=False,
            progress=False,
            yolo_key_every=1,
        ),
    )
    found, true = pocketings(res.events), pocketings(truth.events)
    hit = [p for p in true if p in found]
    pos = position_errors_mm(res.tracks, truth)
    ok_id, n_id = identity_accuracy(res.tracks, truth, table.ball_radius_mm)
    pt = pocket_time_errors_ms(res.events, truth.events)
    lost = lost_in_tracks_csv(Path(res.out_dir) / "tracks.csv", table)
    return {
        "clip": video.stem,
        "game": truth.game,
        "fps": truth.fps,
        "size": f"{res.camera.image_w_px}x{res.camera.image_h_px}",
        "pockets_found": len(hit),
        "pockets_true": len(true),
        "pockets_extra": len([p for p in found if p not in true]),
        "pocket_ms": float(np.median(pt)) if pt else float("nan"),
        "off_table_ok": off_table(res.events) == off_table(truth.events),
        "first_contact_ok": first_contacts(res.events) == first_contacts(truth.events),
        "calls_ok": [pool_call_key(c) for c in res.calls] == [pool_call_key(c) for c in truth.calls()],
        "pos_mm": float(np.median(pos)) if pos else float("nan"),
        "identity": ok_id / n_id if n_id else float("nan"),
        "calib_mm": res.camera.reprojection_error_mm or float("nan"),
        "ratio_decode": an_fps / dec,
        "realtime": an_fps / truth.fps,
        "moving_realtime": res.stats.moving_fps / truth.fps,
        "full_moving_realtime": full.stats.moving_fps / truth.fps,
        "unseen_runs": [str(r) for r in lost],
        "full_same": (
            [pool_call_key(c) for c in full.calls] == [pool_call_key(c) for c in res.calls]
            and first_contacts(full.events) == first_contacts(res.events)
            and pocketings(full.events) == pocketings(res.events)
        ),
    }


def pool_table(rows: list[dict]) -> str:
    head = (
        "| clip | game | size | fps | pocketings found / true (extra) | pocket-time ms | off table ok | first contact ok | calls ok "
        "| centre mm median | identity | calib mm | analysis÷decode | ×real time (moving) "
        "| whole model every frame: ×real time moving | guided ÷ whole (moving) | same events and calls "
        "| moving ball unseen > 1 frame on open cloth (ball@frame: frames) |"
    )
    lines = [head, "|" + "---|" * 18]
    for r in rows:
        lines.append(
            f"| {r['clip']} | {r['game']} | {r['size']} | {r['fps']:.0f} | {r['pockets_found']} / {r['pockets_true']} "
            f"({r['pockets_extra']}) | {r['pocket_ms']:.1f} | {'yes' if r['off_table_ok'] else 'NO'} "
            f"| {'yes' if r['first_contact_ok'] else 'NO'} "
            f"| {'yes' if r['calls_ok'] else 'NO'} | {r['pos_mm']:.2f} | {100 * r['identity']:.1f}% | {r['calib_mm']:.2f} "
            f"| {r['ratio_decode']:.2f} | {r['realtime']:.2f} ({r['moving_realtime']:.2f}) "
            f"| {r['full_moving_realtime']:.2f} | {r['moving_realtime'] / r['full_moving_realtime']:.2f} "
            f"| {'yes' if r['full_same'] else 'NO'} | {', '.join(r['unseen_runs']) or 'none'} |"
        )
    n = len(rows)
    lines.append("")
    lines.append(
        f"Pool and snooker clips: pocketings {sum(r['pockets_found'] for r in rows)}/"
        f"{sum(r['pockets_true'] for r in rows)} found, {sum(r['pockets_extra'] for r in rows)} extra; balls off the "
        f"table right {sum(r['off_table_ok'] for r in rows)}/{n}; first "
        f"contact right {sum(r['first_contact_ok'] for r in rows)}/{n}; calls right "
        f"{sum(r['calls_ok'] for r in rows)}/{n}. The YOLO model runs whole on every sixth frame and where the "
        f"balls do not move as predicted (vision/guided.py): while balls move, "
        f"{min(r['moving_realtime'] / r['full_moving_realtime'] for r in rows):.1f}-"
        f"{max(r['moving_realtime'] / r['full_moving_realtime'] for r in rows):.1f}x the rate of the whole model "
        f"on every frame, with the same pocketings, first contacts and calls on "
        f"{sum(r['full_same'] for r in rows)}/{n} clips."
    )
    return "\n".join(lines)
