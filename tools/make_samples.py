"""Regenerate the sample clips (``sample_videos/*.mp4`` + ``*.truth.json``) from the committed shots.

    python tools/make_samples.py                 # every clip of CLIPS
    python tools/make_samples.py kiss_720p60     # some of them
    python tools/make_samples.py --list

Each clip is one row of :data:`CLIPS` below: the shot it draws (``sample_data/shots/<shot>.npz``,
made by ``tools/make_shots.py``), resolution, frame rate, camera (height, fill, lens k1/k2,
off-axis angle), cloth, occlusion, scoreboard, CRF and a seed; the camera's small random tilt and
roll and all the rendering's randomness derive from the seed, so a run reproduces the frames
exactly (the MP4 bytes too, for the same ffmpeg build). ``INDEX.md`` in the output folder is
rewritten from the clips' truth files, and the folder's total size is checked against the
20 MB budget of the sample set.
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from synth.render.clip import ClipStats

REPO = Path(__file__).resolve().parents[1]
BUDGET_BYTES = 20 * 1024 * 1024
MAX_CLIP_S = 10.0


@dataclass(frozen=True)
class ClipRow:
    name: str
    shot: str
    size: tuple[int, int]
    fps: float
    seed: int
    why: str
    height_mm: float = 3500.0
    fill: float = 0.86
    k1: float = -0.06
    k2: float = 0.0
    off_axis_deg: float = 0.0
    cloth: str = "blue"
    crf: int = 23
    scoreboard: str | None = None  # a frame corner
    hand_over: str | None = None  # the ball a hand and cue cover
    hand_frames_s: tuple[float, float] = (0.0, 0.0)  # clip seconds [from, to)
    hand_offset_mm: float = 0.0


HD, FHD = (1280, 720), (1920, 1080)

CLIPS: tuple[ClipRow, ...] = (
    ClipRow(
        "point_2a_1080p60",
        "point_2a",
        FHD,
        60,
        101,
        "a point (art. 2a), broadcast framing with a scoreboard",
        height_mm=3600,
        fill=0.85,
        k1=-0.06,
        scoreboard="bottom_left",
        crf=20,
    ),
    ClipRow(
        "close_call_point_1080p60",
        "close_call_point",
        FHD,
        60,
        102,
        "a point whose third cushion comes a few ms before the second ball: both in one frame",
        height_mm=3400,
        fill=0.87,
        k1=-0.10,
        k2=0.01,
        crf=20,
    ),
    ClipRow(
        "close_call_miss_720p30",
        "close_call_miss",
        HD,
        30,
        103,
        "a miss whose second ball comes a few ms before the third cushion: both in one frame",
        height_mm=3700,
        fill=0.88,
        k1=-0.03,
        crf=21,
    ),
    ClipRow(
        "kiss_720p60",
        "kiss",
        HD,
        60,
        104,
        "a kiss: the first object ball comes back onto the cue ball",
        height_mm=3300,
        fill=0.86,
        k1=0.02,
        cloth="green",
        crf=22,
    ),
    ClipRow(
        "frozen_cue_into_cushion_1080p30",
        "frozen_cue_into_cushion",
        FHD,
        30,
        105,
        "a cue ball frozen to a cushion played into it (art. 10): a miss",
        height_mm=3500,
        fill=0.84,
        k1=-0.08,
        scoreboard="bottom_right",
        crf=23,
    ),
    ClipRow(
        "long_six_cushions_1080p30",
        "long_six_cushions",
        FHD,
        30,
        106,
        "a long shot of six or more cushions, strong barrel lens",
        height_mm=3200,
        fill=0.88,
        k1=-0.12,
        k2=0.02,
        crf=20,
    ),
    ClipRow(
        "point_2b_offaxis_720p60",
        "point_2b_bricole",
        HD,
        60,
        107,
        "a bricole point (art. 2b) seen by a camera 13 degrees off the table's axis",
        height_mm=3800,
        fill=0.80,
        k1=-0.05,
        off_axis_deg=13.0,
        crf=21,
    ),
    ClipRow(
        "point_2c_hand_720p30",
        "point_2c",
        HD,
        30,
        108,
        "a point (art. 2c) whose cue ball is struck from under the player's hand, hidden for a second",
        height_mm=3500,
        fill=0.86,
        k1=-0.07,
        hand_over="cue_ball",
        hand_frames_s=(0.0, 1.2),
        hand_offset_mm=0.0,
        crf=20,
    ),
    ClipRow(
        "miss_two_cushions_1080p60",
        "miss_two_cushions",
        FHD,
        60,
        109,
        "a miss: only two cushions before the second ball",
        height_mm=3600,
        fill=0.86,
        k1=-0.02,
        cloth="green",
        crf=24,
    ),
    ClipRow(
        "miss_one_ball_720p30",
        "miss_one_ball",
        HD,
        30,
        110,
        "a miss: the cue ball touches one object ball",
        height_mm=3400,
        fill=0.84,
        k1=-0.09,
        scoreboard="top_right",
        crf=21,
    ),
    ClipRow(
        "frozen_object_ball_720p60",
        "frozen_object_ball",
        HD,
        60,
        111,
        "the first object ball frozen to a cushion, driven into it; a point",
        height_mm=3500,
        fill=0.87,
        k1=-0.04,
        crf=22,
    ),
    ClipRow(
        "break_shot_1080p30",
        "break_shot",
        FHD,
        30,
        112,
        "the break from the starting position with the player's bridge hand and cue behind the white",
        height_mm=3500,
        fill=0.85,
        k1=-0.06,
        hand_over="cue_ball",
        hand_frames_s=(0.0, 1.0),
        hand_offset_mm=230.0,
        scoreboard="bottom_left",
        crf=20,
    ),
)


def render_row(row: ClipRow, out_dir: Path) -> tuple[Path, ClipStats, float]:
    import numpy as np

    from calibration.table import load_table
    from synth.physics.shots import load_shot
    from synth.render.cameras import broadcast_camera
    from synth.render.clip import render_clip
    from synth.render.occluder import Occlusion
    from synth.render.style import ClothColour, RenderStyle, Scoreboard
    from tracking.events import ShotStart
    from tracking.ids import BallId

    shot = load_shot(row.shot)
    table = load_table(shot.table)
    rng = np.random.default_rng(row.seed)
    cam = broadcast_camera(
        table,
        row.size[0],
        row.size[1],
        height_mm=row.height_mm,
        fill=row.fill,
        k1=row.k1,
        k2=row.k2,
        off_axis_deg=row.off_axis_deg,
        jitter_deg=1.5,
        roll_deg=0.8,
        rng=rng,
    )
    style = RenderStyle(
        cloth=ClothColour.parse(row.cloth),
        scoreboard=None
        if row.scoreboard is None
        else Scoreboard(
            corner=row.scoreboard,
            players=("CAUDRON", "JASPERS"),
            scores=(int(rng.integers(0, 40)), int(rng.integers(0, 40))),
            innings=int(rng.integers(1, 25)),
        ),
    )
    occ = []
    if row.hand_over is not None:
        ball = (
            next(e.cue_ball for e in shot.events if isinstance(e, ShotStart))
            if row.hand_over == "cue_ball"
            else BallId.parse(row.hand_over)
        )
        f0, f1 = (int(round(s * row.fps)) for s in row.hand_frames_s)
        occ.append(Occlusion(ball, f0, f1, hand_offset_mm=row.hand_offset_mm))
    duration = min(shot.duration_s + 0.3, MAX_CLIP_S)
    out = out_dir / f"{row.name}.mp4"
    t0 = time.perf_counter()
    truth, stats = render_clip(
        shot,
        table,
        cam,
        row.fps,
        out,
        style,
        occ,
        seed=row.seed,
        crf=row.crf,
        duration_s=duration,
        name=row.name,
        shot_name=row.shot,
    )
    return truth, stats, time.perf_counter() - t0


def write_index(out_dir: Path) -> None:
    from synth.render.truth import load_truth

    rows = []
    for p in sorted(out_dir.glob("*.truth.json")):
        tr = load_truth(p)
        mp4 = out_dir / tr.video
        size_kb = mp4.stat().st_size / 1024 if mp4.is_file() else float("nan")
        calls = [s.get("expected_call", {}) for s in tr.meta.get("shots", [])]
        call = ", ".join(("point " + str(c.get("pattern"))) if c.get("point") else "miss" for c in calls) or "-"
        margins = [c.get("margin_ms") for c in calls if c.get("margin_ms") is not None]
        margin = f"{margins[0]:+.1f}" if margins else "-"
        cam = tr.camera
        row = next((r for r in CLIPS if r.name == tr.clip), None)
        rows.append(
            f"| {tr.clip} | {tr.shot} | {tr.image_w_px}x{tr.image_h_px} | {tr.fps:g} | "
            f"{tr.frame_count / tr.fps:.2f} | {call} | {margin} | {cam.k1:+.2f} | "
            f"{'yes' if tr.occlusions else ''} | {'yes' if tr.overlay_box_px else ''} | "
            f"{size_kb:.0f} | {row.why if row else ''} |"
        )
    text = (
        "# Sample clips\n\n"
        "Rendered by `tools/make_samples.py` (the renderer `synth/render`) from the shots in\n"
        "`sample_data/shots/`. Each `<clip>.mp4` (H.264, yuv420p) has a `<clip>.truth.json` beside it\n"
        "(format `tabletrack-clip-truth/1`, see `synth/render/truth.py`): the camera model, every\n"
        "ball's position per frame in mm and px, the truth events with `frame = floor(t * fps)`, the\n"
        "shot's expected call, the occlusions. Frame `i` shows the instant `t = i / fps`.\n\n"
        "`margin ms` is the second-ball contact minus the third counted cushion (from the shot's meta).\n\n"
        "| clip | shot | size | fps | s | call | margin ms | k1 | hand | scoreboard | KiB | what it shows |\n"
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n" + "\n".join(rows) + "\n"
    )
    # the pool/snooker section (tools/make_pool_samples.py) follows its marker line: keep it
    index = out_dir / "INDEX.md"
    old = index.read_text(encoding="utf-8") if index.is_file() else ""
    marker = "<!-- pool-snooker clips"
    tail = old[old.index(marker) :] if marker in old else ""
    index.write_text(text + ("\n" + tail if tail else ""), encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("names", nargs="*", help="clips to make (default: all)")
    ap.add_argument("--out", type=Path, default=REPO / "sample_videos", help="output folder")
    ap.add_argument("--list", action="store_true", help="list the clips and exit")
    args = ap.parse_args(argv)
    sys.path.insert(0, str(REPO))
    if args.list:
        for r in CLIPS:
            print(f"{r.name:34s} {r.shot:26s} {r.size[0]}x{r.size[1]}@{r.fps:g}  {r.why}")
        return 0
    known = {r.name: r for r in CLIPS}
    unknown = [n for n in args.names if n not in known]
    if unknown:
        print(f"make_samples: unknown clip {', '.join(unknown)}: expected one of {', '.join(known)}", file=sys.stderr)
        return 2
    from synth.physics.shots import ShotNotFoundError

    args.out.mkdir(parents=True, exist_ok=True)
    for r in [known[n] for n in args.names] if args.names else CLIPS:
        try:
            truth, st, wall = render_row(r, args.out)
        except (ShotNotFoundError, ValueError) as e:
            print(f"make_samples: {r.name}: {e}", file=sys.stderr)
            return 1
        mp4 = truth.with_name(r.name + ".mp4")
        print(
            f"{r.name:34s} {st.frames:4d} frames  scene {st.scene_s:5.1f} s  frame mean {1000 * st.frame_mean_s:5.1f} ms"
            f"  p95 {1000 * st.frame_p95_s:5.1f} ms  max {1000 * st.frame_max_s:5.1f} ms  wall {wall:5.1f} s"
            f"  {mp4.stat().st_size / 1024:7.0f} KiB",
            flush=True,
        )
    write_index(args.out)
    total = sum(p.stat().st_size for p in args.out.iterdir() if p.is_file())
    print(f"total {total / 1024 / 1024:.2f} MiB in {args.out} (budget {BUDGET_BYTES / 1024 / 1024:.0f} MiB)")
    if total > BUDGET_BYTES:
        print(f"make_samples: the sample set is {total / 1024 / 1024:.2f} MiB, over the 20 MiB budget", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
