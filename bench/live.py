"""Benchmark: live mode on the sample clips, each played in real time as the camera.

For each clip, ``tabletrack live --source CLIP --exit-when-done`` runs in a subprocess while a
WebSocket client (the page's stand-in) records every message: the latency from the capture of the
rest frame (the shot's ``shot_end`` frame), and from the balls' stop in the clip's physics truth, to
the call received on the client, where it went (waiting for the rest, analysis behind, computing),
frames dropped,
the analysis rate ÷ the source's. Then one clip is looped (``--loop``) for ``--loop-minutes``
with its resident memory sampled from the live process's stats: RSS at the start (after the first
minute's warm-up) and at the end.

    python bench/live.py [--clips NAME ...] [--loop-minutes 60] [--quick] [--out BENCHMARKS.md]

``--quick``: two clips and a two-minute loop (a check that it works, not figures to commit).
The section is written into BENCHMARKS.md between ``<!-- live:begin -->`` and ``<!-- live:end -->``
(``bench/run.py --live`` runs it as part of the whole file).
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import numpy as np

REPO = Path(__file__).resolve().parents[1]
BEGIN, END = "<!-- live:begin -->", "<!-- live:end -->"
QUICK_CLIPS = ("miss_one_ball_720p30", "point_2a_1080p60")
LOOP_CLIP = "point_2a_1080p60"


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def run_live(clip: Path, extra: tuple[str, ...] = (), timeout_s: float = 600) -> list[tuple[float, dict[str, Any]]]:
    """Run ``tabletrack live`` on ``clip`` until it exits; every WebSocket message with its arrival time."""
    from websockets.sync.client import connect

    port = _port()
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, PYTHONPATH=str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", ""))
        cmd = [sys.executable, "-m", "tabletrack", "live", "--source", str(clip), "--match", tmp + "/m"]
        cmd += ["--port", str(port), "--exit-when-done", *extra]
        proc = subprocess.Popen(cmd, cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        msgs: list[tuple[float, dict[str, Any]]] = []

        def listen() -> None:
            end = time.time() + 120
            while time.time() < end and proc.poll() is None:
                try:
                    with connect(f"ws://127.0.0.1:{port}/ws", open_timeout=5) as ws:
                        for text in ws:
                            msgs.append((time.time(), json.loads(text)))
                    return
                except OSError:
                    time.sleep(0.1)
                except Exception:
                    return

        th = threading.Thread(target=listen, daemon=True)
        th.start()
        try:
            out, _ = proc.communicate(timeout=timeout_s)
        except subprocess.TimeoutExpired:
            proc.kill()
            out, _ = proc.communicate()
        th.join(5)
        if proc.returncode != 0:
            raise RuntimeError(f"{clip.name}: live exited {proc.returncode}: {out[-2000:]}")
    return msgs


def bench_clip(clip: Path) -> dict[str, Any]:
    msgs = run_live(clip)
    calls = [(t, m) for t, m in msgs if m["type"] == "call"]
    stats = [m["stats"] for _, m in msgs if m["type"] == "stats"]
    last = stats[-1]
    # per shot: the first call on the page (the provisional one shown as the balls stop, or the
    # settled one when none was shown) and the settled one
    first: dict[int, float] = {}
    final: dict[int, float] = {}
    parts: dict[int, dict[str, Any]] = {}
    provisional_text: dict[int, str | None] = {}
    settled_text: dict[int, str | None] = {}
    for t, m in calls:
        if not m.get("rest_wall_s"):
            continue
        shot, ms = m["call"]["shot"], (t - m["rest_wall_s"]) * 1000
        if shot not in first:
            first[shot] = ms
            parts[shot] = m
        if not m["call"].get("provisional"):
            final[shot] = ms
            settled_text[shot] = m["call"].get("text")
        else:
            provisional_text.setdefault(shot, m["call"].get("text"))
    fps = float(stats[-1]["source_fps"])
    # the physics truth's rest (every ball at speed 0) against the analysis's rest frame (the
    # first frame of the rest run: within rest_tol_mm of where the ball stops, so a little before)
    truth_ends = _truth_rest_s(clip)
    phys: list[float] = []
    waits: list[float] = []
    behind: list[float] = []
    compute: list[float] = []
    for k, shot in enumerate(sorted(first)):
        m = parts[shot]
        if m.get("rest_frame") is None:
            continue
        t_ours = m["rest_frame"] / fps
        if k < len(truth_ends):
            phys.append(first[shot] - (truth_ends[k] - t_ours) * 1000.0)
        if m.get("decided_frame") is not None:
            waits.append((m["decided_frame"] - m["rest_frame"]) / fps * 1000.0)
            behind.append(m["analysis_behind_ms"] if m.get("analysis_behind_ms") is not None else float("nan"))
            compute.append(m["compute_ms"])
    return {
        "clip": clip.stem,
        "calls": len({m["call"]["shot"] for _, m in calls}),
        "latency_ms": list(first.values()),
        "physical_latency_ms": phys,
        "wait_ms": waits,
        "behind_ms": behind,
        "compute_ms": compute,
        "final_latency_ms": list(final.values()),
        # shots shown a provisional call, and of those the ones whose settled call said the same
        "provisional": len(provisional_text),
        "confirmed": sum(settled_text.get(k) == t for k, t in provisional_text.items()),
        "read": last["frames_read"],
        "dropped": last["frames_dropped"],
        "analysed": last["frames_analysed"],
        "fps": last["source_fps"],
        "rate": max((s["analysis_fps"] for s in stats), default=0.0),
        "rates": [s["analysis_fps"] for s in stats if s["analysis_fps"] > 0],
    }


def _truth_rest_s(clip: Path) -> list[float]:
    """The times (s) each shot's balls all stop in the clip's physics truth, in shot order (empty
    when the clip has no truth file)."""
    from tabletrack.truth_eval import ClipTruth
    from tracking.events import ShotEnd

    path = clip.with_name(clip.stem + ".truth.json")
    if not path.is_file():
        return []
    ends = [e for e in ClipTruth.load(path).events if isinstance(e, ShotEnd)]
    return [e.t_s for e in sorted(ends, key=lambda e: e.shot)]


def _memory_run(clip: Path, minutes: float) -> dict[str, Any]:
    """Loop ``clip`` for ``minutes``: RSS over time from the stats messages."""
    from websockets.sync.client import connect

    port = _port()
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, PYTHONPATH=str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", ""))
        cmd = [sys.executable, "-m", "tabletrack", "live", "--source", str(clip), "--match", tmp + "/m"]
        cmd += ["--port", str(port), "--loop"]
        proc = subprocess.Popen(cmd, cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        samples: list[tuple[float, float, int, int, int]] = []
        calls = 0
        t0 = time.time()
        try:
            while time.time() - t0 < 60 and not samples:
                try:
                    with connect(f"ws://127.0.0.1:{port}/ws", open_timeout=5) as ws:
                        for text in ws:
                            m = json.loads(text)
                            if m["type"] == "stats":
                                s = m["stats"]
                                samples.append(
                                    (time.time() - t0, s["rss_mb"], s["frames_read"], s["frames_dropped"], 0)
                                )
                            elif m["type"] == "call":
                                calls += 1
                            if time.time() - t0 > minutes * 60:
                                break
                except OSError:
                    time.sleep(0.2)
        finally:
            proc.terminate()
            proc.wait(30)
    warm = [s for s in samples if s[0] >= min(60.0, minutes * 60 / 4)]
    return {
        "clip": clip.stem,
        "minutes": minutes,
        "rss_start_mb": warm[0][1] if warm else float("nan"),
        "rss_end_mb": samples[-1][1] if samples else float("nan"),
        "rss_max_mb": max((s[1] for s in samples), default=float("nan")),
        "frames": samples[-1][2] if samples else 0,
        "dropped": samples[-1][3] if samples else 0,
        "calls": calls,
    }


def section(rows: list[dict[str, Any]], mem: dict[str, Any] | None, cmd: str) -> str:
    lines = [
        "## Live mode",
        "",
        f"Generated by `{cmd}` on {time.strftime('%Y-%m-%d')}: each clip played in real time as the camera "
        "(`tabletrack live --source CLIP`), a WebSocket client standing in for the page. The first call shown for "
        "each shot is the provisional one, shown the moment every ball rests (`FrameAnalysis.provisional`: the open "
        "shot's events as if the data ended there, judged without keeping the state); the settled call follows once "
        "every ball has rested 1.5 s (`tracking/infer/stream.py` `settle_s`, so that live and `analyze` give the same "
        "events) and replaces it (last column). Latency is measured two ways: from the capture of the analysis's "
        "rest frame (the shot's `shot_end`: the first frame of the rest run, where every ball is within "
        "`rest_tol_mm` 3.5 mm of where it stops, so while the last ball still creeps) and from the moment the balls "
        "really stop (the clip's physics truth: every ball at speed 0; the capture runs at the source's frame rate, "
        "so that moment's wall time is the rest frame's plus the difference). The target is read on the second: "
        "it is what a spectator sees. Where the first went: the frames until every ball had rested "
        "`rest_min_s` (0.25 s: the segmenter's rest), how far the analysis trailed the capture of the frame that "
        "decided it, the computation of the call.",
        "",
        "| clip | fps | calls | rest frame → call on the page, ms | balls stopped (truth) → call on the page, ms "
        "| of the first: wait for the rest / analysis behind / computation, ms | frames read | dropped | analysed "
        "| frames analysed (detector run) per s ÷ source fps, median of 0.5 s windows | rest frame → settled call, ms |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        lat = ", ".join(f"{v:.0f}" for v in r["latency_ms"]) or "–"
        phys = ", ".join(f"{v:.0f}" for v in r["physical_latency_ms"]) or "–"
        parts = "; ".join(
            f"{w:.0f} / {b:.0f} / {c:.0f}" for w, b, c in zip(r["wait_ms"], r["behind_ms"], r["compute_ms"])
        )
        rate = float(np.median(r["rates"])) / r["fps"] if r["rates"] else float("nan")
        lines.append(
            f"| {r['clip']} | {r['fps']:.0f} | {r['calls']} | {lat} | {phys} | {parts or '–'} | {r['read']} "
            f"| {r['dropped']} | {r['analysed']} "
            f"| {rate:.2f} | {', '.join(f'{v:.0f}' for v in r['final_latency_ms']) or '–'} |"
        )
    lat_all = [v for r in rows for v in r["latency_ms"]]
    phys_all = [v for r in rows for v in r["physical_latency_ms"]]
    carom_drops = sum(r["dropped"] for r in rows)
    lines += ["", "| target | measured | met |", "|---|---|---|"]
    lines.append(
        f"| no frame dropped on the carom samples | {carom_drops} dropped over {len(rows)} clips "
        f"({sum(r['dropped'] > 0 for r in rows)} clips with drops) | {'yes' if carom_drops == 0 else 'no'} |"
    )
    if lat_all:
        med, p90 = float(np.median(lat_all)), float(np.percentile(lat_all, 90))
        ours = f"from the rest frame: median {med:.0f} ms, p90 {p90:.0f} ms over {len(lat_all)} calls"
        if phys_all:
            pm, p9 = float(np.median(phys_all)), float(np.percentile(phys_all, 90))
            lines.append(
                f"| call on the page < 300 ms after the balls rest (median) | from the balls' stop (truth): median "
                f"{pm:.0f} ms, p90 {p9:.0f} ms over {len(phys_all)} calls; {ours} (the first call shown for each "
                f"shot) | {'yes' if pm < 300 else 'no'} |"
            )
        else:
            lines.append(
                f"| call on the page < 300 ms after the balls rest (median) | {ours} (the first call shown for each "
                f"shot; no physics truth to time the stop) | {'yes' if med < 300 else 'no'} |"
            )
    shown = sum(r.get("provisional", 0) for r in rows)
    if shown:
        same = sum(r.get("confirmed", 0) for r in rows)
        lines.append(
            f"| (the provisional call is the settled one) | {same} of {shown} provisional calls said what the settled "
            f"call said | {'yes' if same == shown else 'no'} |"
        )
    if mem:
        grow = mem["rss_end_mb"] - mem["rss_start_mb"]
        lines.append(
            f"| memory flat over a {mem['minutes']:.0f}-minute stream ({mem['clip']} looped) | RSS {mem['rss_start_mb']:.0f} MB "
            f"after warm-up, {mem['rss_end_mb']:.0f} MB at the end (max {mem['rss_max_mb']:.0f}); {mem['frames']} frames, "
            f"{mem['dropped']} dropped, {mem['calls']} calls | {'yes' if grow < 0.1 * mem['rss_start_mb'] else 'no'} |"
        )
    load = os.getloadavg()
    lines += [
        "",
        "Wall-clock on this 2-core machine, shared: the figures move with whatever else runs (load average at the "
        f"end of this run: {load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f} over 1 / 5 / 15 minutes).",
    ]
    return "\n".join(lines)


def replace_section(text: str, body: str) -> str:
    """:func:`sections.replace_section` with this script's markers."""
    import sections  # bench/sections.py (this script's folder is on sys.path when it runs)

    return sections.replace_section(text, body, BEGIN, END)


def run(clips: list[str] | None = None, loop_minutes: float = 60.0, quick: bool = False) -> str:
    """Measure and return the section's body (also printed as it goes)."""
    names = list(QUICK_CLIPS) if quick and not clips else clips
    videos = sorted((REPO / "sample_videos").glob("*.mp4"))
    if names:
        videos = [v for v in videos if v.stem in set(names)]
    rows = []
    for v in videos:
        r = bench_clip(v)
        rows.append(r)
        print(
            f"{r['clip']}: calls {r['calls']}, latency {r['latency_ms']}, dropped {r['dropped']}/{r['read']}",
            flush=True,
        )
    mem = None
    minutes = 2.0 if quick else loop_minutes
    if minutes > 0:
        mem = _memory_run(REPO / "sample_videos" / f"{LOOP_CLIP}.mp4", minutes)
        print(f"memory: {mem}", flush=True)
    cmd = (
        "python bench/live.py"
        + (" --quick" if quick else "")
        + (f" --loop-minutes {loop_minutes:g}" if not quick else "")
    )
    return section(rows, mem, cmd)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--clips", nargs="*", help="clip names (default: every carom sample clip)")
    ap.add_argument("--loop-minutes", type=float, default=60.0, help="minutes of the looped memory run (0: none)")
    ap.add_argument("--quick", action="store_true", help="two clips and a two-minute loop")
    ap.add_argument("--out", default=str(REPO / "BENCHMARKS.md"), help="write the section here ('-': only print)")
    args = ap.parse_args()
    body = run(args.clips, args.loop_minutes, args.quick)
    print(body)
    if args.out != "-":
        p = Path(args.out)
        p.write_text(replace_section(p.read_text(encoding="utf-8") if p.is_file() else "", body), encoding="utf-8")
        print(f"written {p}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
