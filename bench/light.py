"""Benchmark: carom sample clips under a light that changes while they play.

A broadcast camera's exposure follows the scene (a player leaning in, a lamp, the director's
hand), and a club's lights flicker or warm up: the cloth a clip starts on is not the cloth it ends
on. The classical detector's cloth model is the first frame's, made again where the light has
changed over the whole view (vision/classical.py, ``ClassicalConfig.drift_lightness``); before it
was, a clip brightened by 45 % over its length was analysed at 0.83x real time instead of 13x (the
whole cloth foreground, every blob measured). Each sample clip is written again with its frames'
brightness scaled as the variant says, beside its truth and referee input, and analysed as
``bench/run.py`` analyses the originals (the same comparison against the physics truth), so the
calls, cushion counts, contact times and centres show whether the change of light costs accuracy,
and the ×real-time column, beside the original's in the same run, whether it costs time:

- ``original``: the clip as it is;
- ``brighter``: the gain rising from 1 to 1.45 over the clip;
- ``darker``: the gain falling from 1 to 0.6;
- ``step``: the gain jumping from 1 to 1.3 at the clip's middle (an exposure step).

Writes the "Light that changes" section of BENCHMARKS.md between ``<!-- light:begin -->`` and
``<!-- light:end -->`` (about a minute; not part of ``.ci/run``).

    python bench/light.py [--out BENCHMARKS.md | -] [--clips NAME ...]
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))

BEGIN = "<!-- light:begin -->"
END = "<!-- light:end -->"
VARIANTS = ("original", "brighter", "darker", "step")
DEFAULT_CLIPS = ("miss_one_ball_720p30", "point_2a_1080p60")


def gain(variant: str, i: int, n: int) -> float:
    """The brightness gain of frame ``i`` of ``n`` under ``variant`` (module docstring)."""
    f = i / max(n - 1, 1)
    if variant == "original":
        return 1.0
    if variant == "brighter":
        return 1.0 + 0.45 * f
    if variant == "darker":
        return 1.0 - 0.4 * f
    if variant == "step":
        return 1.3 if i >= n // 2 else 1.0
    raise ValueError(f"unknown variant {variant!r}: expected one of {', '.join(VARIANTS)}")


def write_variant(video: Path, variant: str, out_dir: Path) -> Path:
    """``video`` with each frame's brightness scaled by :func:`gain`, with its truth and referee
    input beside it (the names ``analyze`` and ``bench/run.py`` look for)."""
    import cv2

    out_dir.mkdir(parents=True, exist_ok=True)
    out = out_dir / video.name
    cap = cv2.VideoCapture(str(video))
    n = int(cap.get(cv2.CAP_PROP_FRAME_COUNT))
    fps = cap.get(cv2.CAP_PROP_FPS)
    w, h = int(cap.get(cv2.CAP_PROP_FRAME_WIDTH)), int(cap.get(cv2.CAP_PROP_FRAME_HEIGHT))
    writer = cv2.VideoWriter(str(out), cv2.VideoWriter.fourcc(*"mp4v"), fps, (w, h))
    i = 0
    while True:
        ok, frame = cap.read()
        if not ok:
            break
        writer.write(cv2.convertScaleAbs(frame, alpha=gain(variant, i, n), beta=0))
        i += 1
    cap.release()
    writer.release()
    for suffix in (".truth.json", ".referee.json"):
        side = video.with_name(video.stem + suffix)
        if side.is_file():
            shutil.copy(side, out_dir / side.name)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=str(REPO / "BENCHMARKS.md"), help="write the section here ('-': only print)")
    ap.add_argument("--clips", nargs="*", default=list(DEFAULT_CLIPS), help="carom sample clip names")
    args = ap.parse_args(argv)
    import real  # bench/real.py: the markdown table
    import run  # bench/run.py: the comparison against the physics truth
    from sections import publish_section

    t0 = time.perf_counter()
    rows = []
    with tempfile.TemporaryDirectory(prefix="light_bench_") as tmp:
        work = Path(tmp)
        for name in args.clips:
            video = REPO / "sample_videos" / f"{name}.mp4"
            if not video.is_file():
                print(f"no sample clip {video}: expected one of sample_videos/*.mp4", file=sys.stderr)
                return 2
            base = None
            for v in VARIANTS:
                clip = video if v == "original" else write_variant(video, v, work / v)
                r = run.bench_clip(clip, work / f"out_{v}")
                base = r["realtime"] if v == "original" else base
                rows.append(
                    [
                        name,
                        v,
                        f"{r['calls']} / {r['true_calls']}",
                        "yes" if r["calls_ok"] else "**no**",
                        "yes" if r["cushions_ok"] else "**no**",
                        f"{r['contact_ms']:.1f} ({r['contact_p90_ms']:.1f})",
                        f"{r['missed']} / {r['extra']}",
                        f"{r['pos_mm']:.2f}",
                        f"{r['realtime']:.2f}",
                        f"{r['realtime'] / base:.2f}" if base else "-",
                    ]
                )
                print(f"{name} {v}: calls {r['calls']} / {r['true_calls']}, {r['realtime']:.2f}x real time", flush=True)
    head = [
        "clip",
        "light",
        "calls (found / truth)",
        "calls ok",
        "cue-ball cushions ok",
        "contact ms median (p90)",
        "missed / extra contacts",
        "centre mm median",
        "×real time (analysis)",
        "÷ original's",
    ]
    body = "\n".join(
        [
            "## Light that changes",
            "",
            f"Generated by `python bench/light.py` on {time.strftime('%Y-%m-%d')} in {time.perf_counter() - t0:.0f} s. "
            "Carom sample clips written again with each frame's brightness scaled (brighter: the gain rising from 1 "
            "to 1.45 over the clip; darker: falling to 0.6; step: 1.3 from the clip's middle: a broadcast camera's "
            "exposure, a lamp), analysed as bench/run.py analyses the originals, against the same physics truth; "
            "the last column is the analysis speed over the original's in the same run (see the script's docstring).",
            "",
            real.md_table(head, rows),
            "",
        ]
    )
    publish_section(body, args.out, BEGIN, END, "light")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
