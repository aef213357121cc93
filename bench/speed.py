"""Benchmark: what a user waits for. ``tabletrack analyze`` run whole, as a user runs it, on every
sample clip, with and without the annotated video; writes the "Speed" section of BENCHMARKS.md.

For each clip, in one run of this script: decode-only of the same file first (every frame read to
BGR with OpenCV, and grab-only without the colour conversion), then the command in a subprocess
(``python -m tabletrack analyze CLIP --quiet [--no-video]``, the game and table of a pool or snooker
clip from its truth file; the packages' bytecode compiled first, as ``pip install`` leaves it:
:func:`child_env`), timed from outside: wall time, CPU used ((user + sys) / wall: 2.0 is
both cores busy; the FFmpeg that encodes the annotated video included, a child it waits for) and the
maximum resident memory of the process (its ``VmHWM``, read every 50 ms) and of it with its
children (the largest sum of their ``VmRSS`` seen in those reads). From the
command's own summary: the analysis stage alone (its ``speed`` line) and the frame rate while the
balls rest (its ``frames`` line). The table gives

- the whole command against the clip's length (x real time) and the analysis stage's own figure;
- analysis ÷ decode-only while the balls rest (the analysis's resting frame rate over the BGR
  decode-only rate of the same file, measured minutes apart in this run; a frame is resting when
  the analysis found every ball at rest after it: :meth:`tabletrack.session.FrameAnalysis.feed`);
- the load average when each clip started (the machine has two cores; other work moves the
  absolute figures, the ratios less).

    python bench/speed.py [--quick] [--clips NAME ...] [--repeat N] [--real] [--out BENCHMARKS.md] [--no-write]

``--quick``: four clips (two carom 1080p60, the nine-ball 1080p60 and a snooker clip). ``--repeat N``:
each command N times, the row being the run of median wall time with the range beside it (a single
run moves by a fifth and more with this machine's load). ``--real``: the real broadcast clips of
``../shared/data/real-dev/`` too (nine-ball 1080p25, eight-ball 576p), in a table of their own:
what a user's camera gives, beside the rendered samples. The section
sits between ``<!-- speed:begin -->`` and ``<!-- speed:end -->``; bench/run.py calls :func:`run`
and :func:`replace_section` the same way.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import cv2

REPO = Path(__file__).resolve().parents[1]
BEGIN = "<!-- speed:begin -->"
END = "<!-- speed:end -->"
QUICK = ("miss_two_cushions_1080p60", "point_2a_1080p60", "combination_1080p60", "snooker_pot_720p30")


def clips() -> list[Path]:
    return sorted((REPO / "sample_videos").glob("*.mp4")) + sorted((REPO / "sample_videos" / "pool").glob("*.mp4"))


def decode_only(video: Path, convert: bool) -> tuple[int, float]:
    """(frames, frames per second) reading every frame, to BGR or grab-only."""
    cap = cv2.VideoCapture(str(video))
    n = 0
    t0 = time.perf_counter()
    while cap.read()[0] if convert else cap.grab():
        n += 1
    dt = time.perf_counter() - t0
    cap.release()
    return n, n / dt


#: real broadcast footage beside the repository (not in it: no licence allows that); optional
REAL = REPO.parent / "shared" / "data" / "real-dev"
#: the real clips' games, by folder (the tables as bench/real.py analyses them)
REAL_GAMES = {"nine-ball-clips": "nine-ball", "eight-ball-clips": "eight-ball"}


def real_clips(root: Path = REAL) -> list[Path]:
    """The real broadcast clips under ``root`` (nine-ball 1920x1080 25 fps, eight-ball 1024x576);
    none where it is absent."""
    return sorted((root / "nine-ball-clips").glob("*.mp4")) + sorted((root / "eight-ball-clips").glob("*/*.mp4"))


def _real_folder(video: Path) -> str | None:
    for part in video.parents:
        if part.name in REAL_GAMES:
            return part.name
    return None


def game_args(video: Path) -> list[str]:
    folder = _real_folder(video)
    if folder is not None:
        return ["--game", REAL_GAMES[folder], "--table", "pool"]
    if video.parent.name != "pool":
        return []
    truth = json.loads(video.with_name(video.stem + ".truth.json").read_text(encoding="utf-8"))
    table = {"pool_9ft": "pool"}.get(truth["table"], truth["table"])
    return ["--game", truth["game"], "--table", table]


class PeakMemory:
    """The peak resident memory (MB) of a running process, read every ``every_s`` in a thread
    until :meth:`stop`: ``mb`` its own high-water mark (``VmHWM`` of ``/proc/PID/status``),
    ``with_children_mb`` the largest sum seen of its ``VmRSS`` and its children's (the FFmpeg
    that encodes the annotated video); 0 where /proc is not there."""

    def __init__(self, pid: int, every_s: float = 0.05) -> None:
        import threading

        self.mb = 0.0
        self.with_children_mb = 0.0
        self._pid = pid
        self._stop = threading.Event()
        self._every = every_s
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    @staticmethod
    def _field_mb(pid: int | str, name: str) -> float:
        try:
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith(name + ":"):
                    return float(line.split()[1]) / 1024.0
        except (OSError, ValueError, IndexError):
            pass
        return 0.0

    def _children(self) -> list[str]:
        out: list[str] = []
        try:
            for task in Path(f"/proc/{self._pid}/task").iterdir():
                out += (task / "children").read_text().split()
        except OSError:
            pass
        return out

    def _run(self) -> None:
        while not self._stop.is_set():
            self.mb = max(self.mb, self._field_mb(self._pid, "VmHWM"))
            total = self._field_mb(self._pid, "VmRSS") + sum(self._field_mb(c, "VmRSS") for c in self._children())
            self.with_children_mb = max(self.with_children_mb, total)
            self._stop.wait(self._every)

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(1.0)


#: the project's packages (pyproject.toml's packages.find)
PACKAGES = ("tabletrack", "vision", "calibration", "tracking", "rules", "models", "synth", "common")


def child_env() -> dict[str, str]:
    """The commands' environment: this one, the repository first on the path, and Python's
    bytecode cache allowed — as on a user's machine, where pip compiles it at install; a shell
    that sets ``PYTHONDONTWRITEBYTECODE`` (this machine's does) would otherwise have every run
    compile the ~80 modules it imports anew (~0.2 s, counted in every row)."""
    env = dict(os.environ, PYTHONPATH=str(REPO))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def compile_bytecode() -> None:
    """Compile the packages' bytecode once before the timed runs, as ``pip install`` does."""
    dirs = [str(REPO / p) for p in PACKAGES if (REPO / p).is_dir()]
    subprocess.run([sys.executable, "-m", "compileall", "-q", *dirs], env=child_env(), check=False)


def run_command(video: Path, out: Path, with_video: bool) -> dict:
    cmd = [sys.executable, "-m", "tabletrack", "analyze", str(video), "--out", str(out), "--quiet", *game_args(video)]
    if not with_video:
        cmd.append("--no-video")
    env = child_env()
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    peak = PeakMemory(p.pid)
    _, status, usage = os.wait4(p.pid, 0)
    peak.stop()
    wall = time.perf_counter() - t0
    p.returncode = os.waitstatus_to_exitcode(status)
    stdout, stderr = p.stdout.read() if p.stdout else "", p.stderr.read() if p.stderr else ""
    if p.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)}: exit {p.returncode}\n{stderr[-2000:]}")
    speed = re.search(r"analysis alone ([\d.]+) s = ([\d.]+)x", stdout)
    rest = re.search(r"frames/s while balls move, (\d+|nan) while they rest", stdout)
    return {
        "wall_s": wall,
        "cpu": (usage.ru_utime + usage.ru_stime) / wall,
        # the process's own high-water mark: ru_maxrss of a child inherits its parent's at exec
        # (bench/run.py had grown to 1.3 GB by then, and every row read 1278 MB)
        "rss_mb": peak.mb if peak.mb > 0 else usage.ru_maxrss / 1024.0,
        "rss_children_mb": peak.with_children_mb,
        "analysis_s": float(speed.group(1)) if speed else float("nan"),
        "analysis_x": float(speed.group(2)) if speed else float("nan"),
        "resting_fps": float(rest.group(1)) if rest else float("nan"),
    }


def target_x(video: Path, with_video: bool) -> float | None:
    """Issue 10's target for the whole command (x real time): carom 2 with the annotated video and
    3 without; pool and snooker 1 with it (none set without)."""
    if video.parent.name == "pool" or _real_folder(video) is not None:
        return 1.0 if with_video else None
    return 2.0 if with_video else 3.0


def bench_clip(video: Path, work: Path, with_video: bool, repeat: int = 1) -> dict:
    """One row: decode-only of ``video``, then the command ``repeat`` times; the row's figures are
    the run of median wall time's, with the fastest and slowest runs' x real time beside them
    (this machine's load moves a single run by a fifth and more)."""
    load = os.getloadavg()[0]
    n, dec = decode_only(video, convert=True)
    _, grab = decode_only(video, convert=False)
    fps = cv2.VideoCapture(str(video)).get(cv2.CAP_PROP_FPS)
    runs = sorted(
        (
            run_command(video, work / f"{video.stem}-{'video' if with_video else 'novideo'}-{k}", with_video)
            for k in range(max(1, repeat))
        ),
        key=lambda run: run["wall_s"],
    )
    r = runs[(len(runs) - 1) // 2]
    clip_s = n / fps
    return {
        "clip": video.stem,
        "video": with_video,
        "clip_s": clip_s,
        "decode_fps": dec,
        "grab_fps": grab,
        "whole_x": clip_s / r["wall_s"],
        "whole_x_lo": clip_s / runs[-1]["wall_s"],
        "whole_x_hi": clip_s / runs[0]["wall_s"],
        "runs": len(runs),
        "target_x": target_x(video, with_video),
        "real": _real_folder(video) is not None,
        "rest_ratio": r["resting_fps"] / dec,
        "load": load,
        **r,
    }


def _whole(r: dict) -> str:
    """The whole command's x real time (median; the range where there are several runs) and
    whether it meets the target."""
    text = f"{r['whole_x']:.2f}"
    if r.get("runs", 1) > 1:
        text += f" ({r['whole_x_lo']:.2f}-{r['whole_x_hi']:.2f})"
    target = r.get("target_x")
    if target is not None:
        text += f" / {target:g}: {'met' if r['whole_x'] >= target else 'not met'}"
    return text


def table(rows: list[dict]) -> str:
    lines = [
        "| clip | length s | annotated video | wall s | ×real time, whole command (median of the runs; "
        "fastest-slowest) / target | ×real time, analysis alone (printed) "
        "| decode-only fps: BGR / grab | analysis ÷ decode-only (BGR) while resting | CPU used (2 = both cores) "
        "| max RSS MB: the process / with its FFmpeg | load at start |",
        "|" + "---|" * 11,
    ]
    for r in rows:
        lines.append(
            f"| {r['clip']} | {r['clip_s']:.1f} | {'yes' if r['video'] else 'no'} | {r['wall_s']:.1f} | {_whole(r)} "
            f"| {r['analysis_x']:.2f} | {r['decode_fps']:.0f} / {r['grab_fps']:.0f} | {r['rest_ratio']:.2f} "
            f"| {r['cpu']:.2f} | {r['rss_mb']:.0f} / {r['rss_children_mb']:.0f} | {r['load']:.1f} |"
        )
    return "\n".join(lines)


def run(
    names: list[str] | None = None, quick: bool = False, both: bool = True, repeat: int = 1, real: bool = False
) -> tuple[str, list[dict]]:
    """The section's body (markdown) and its rows (each command run ``repeat`` times); with
    ``real``, the real broadcast clips of :data:`REAL` too, in a table of their own."""
    videos = clips()
    wanted = set(names or (QUICK if quick else ()))
    if wanted:
        videos = [v for v in videos if v.stem in wanted]
    reals = real_clips() if real else []
    rows = []
    compile_bytecode()
    with tempfile.TemporaryDirectory() as tmp:
        for v in videos + reals:
            for with_video in (True, False) if both else (True,):
                r = bench_clip(v, Path(tmp), with_video, repeat)
                rows.append(r)
                print(
                    f"{r['clip']} {'video' if with_video else 'no video'}: wall {r['wall_s']:.1f} s = "
                    f"{r['whole_x']:.2f}x real time (analysis {r['analysis_x']:.2f}x), CPU {r['cpu']:.2f}, "
                    f"RSS {r['rss_mb']:.0f} MB, load {r['load']:.1f}",
                    flush=True,
                )
    body = [
        "## Speed: what a user waits for",
        "",
        f"Generated by `python bench/speed.py{' --quick' if quick else ''}{f' --repeat {repeat}' if repeat > 1 else ''}"
        f"{' --real' if real else ''}` "
        f"on {time.strftime('%Y-%m-%d')} "
        f"({platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, OpenCV {cv2.__version__}). "
        "Each row is `tabletrack analyze CLIP` run whole in a subprocess, as a user runs it (start-up with the "
        "packages' bytecode compiled, as pip leaves them, calibration, "
        "analysis, the annotated video: H.264 by FFmpeg in a child process, whose CPU time the CPU column includes), "
        "timed from outside; decode-only is of the same file in the same run. "
        + (
            f"Each command ran {repeat} times in a row: a row is the run of median wall time, with the fastest and "
            "slowest runs' x real time in brackets. "
            if repeat > 1
            else ""
        )
        + "Targets (issue 10): carom 2x real time with the annotated video, 3x without; pool and snooker 1x with it. "
        "A frame counts as resting when the analysis found every ball at rest after it (the stroke's frame, where a "
        "ball is found struck, is a moving one; a frame skipped as still changes nothing). "
        "Absolute times move with the load (the last column); compare ratios.",
        "",
        table([r for r in rows if not r["real"]]),
        "",
    ]
    if real and not reals:
        body += [f"### Real broadcast clips\n\nabsent: no clips under {REAL}", ""]
    if reals:
        body += [
            "### Real broadcast clips",
            "",
            "The real clips of `../shared/data/real-dev/` (not in the repository), run the same way: nine-ball "
            "(`--game nine-ball --table pool`, 1920x1080 at 25 fps: a real broadcast's file, whose first frames decode "
            "slowly) and eight-ball (`--game eight-ball --table pool`, 1024x576).",
            "",
            table([r for r in rows if r["real"]]),
            "",
        ]
    return "\n".join(body), rows


def replace_section(text: str, body: str) -> str:
    """:func:`sections.replace_section` with this script's markers."""
    import sections  # bench/sections.py (this script's folder is on sys.path when it runs)

    return sections.replace_section(text, body, BEGIN, END)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--clips", nargs="*", help="clip names (default: every sample clip)")
    ap.add_argument("--quick", action="store_true", help=f"only {', '.join(QUICK)}")
    ap.add_argument("--video-only", action="store_true", help="only with the annotated video (half the runs)")
    ap.add_argument("--out", default=str(REPO / "BENCHMARKS.md"))
    ap.add_argument("--no-write", action="store_true", help="print the table, leave BENCHMARKS.md alone")
    ap.add_argument("--repeat", type=int, default=1, help="runs of each command; a row is the median's (default 1)")
    ap.add_argument("--real", action="store_true", help=f"also the real broadcast clips of {REAL} (where present)")
    args = ap.parse_args()
    if args.repeat < 1:
        ap.error(f"--repeat: expected a positive number of runs, got {args.repeat}")
    body, _ = run(args.clips, args.quick, both=not args.video_only, repeat=args.repeat, real=args.real)
    print(body)
    if not args.no_write:
        out = Path(args.out)
        text = out.read_text(encoding="utf-8") if out.is_file() else "# Benchmarks\n"
        out.write_text(replace_section(text, body), encoding="utf-8")
        print(f"written {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
