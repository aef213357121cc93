"""The sample clips (``sample_videos/*.mp4``, ``sample_videos/pool/*.mp4``) analyzed from their
pixels as the golden tests analyze them, reduced to what the program says per shot: the call
(legal, foul, points, turn over, the articles its reason cites), the cue ball's cushion counts,
the events in order (kind, balls, cushion or pocket, time), the pocketings, the balls off the
table and the cue ball's first contact.

``python tests/golden/regenerate.py [clip ...]`` regenerates the committed expected outputs
(``tests/golden/expected/<clip>.json``) on purpose, after a change whose new outputs are right: it
refuses to write a clip whose calls, cushion counts, pocketings, balls off the table or first
contacts differ from the clip's physics truth (``<clip>.truth.json``) unless given ``--force``.
The golden tests (test_golden_clips.py, test_golden_pool.py) compare each analysis with that file:
exactly, except event times, which agree within :data:`TIME_TOL_S`."""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
EXPECTED_DIR = Path(__file__).resolve().parent / "expected"
CAROM_CLIPS = sorted((REPO / "sample_videos").glob("*.mp4"))
POOL_CLIPS = sorted((REPO / "sample_videos" / "pool").glob("*.mp4"))
#: Event times may move this much (decoder or BLAS rounding) and still match the expected output.
TIME_TOL_S = 0.005
#: The golden clips analyzed in the default run (``.ci/run``): one carom, one pool and one snooker
#: clip, among the quickest to analyze; the others are marked ``slow`` (``pytest -m golden`` runs
#: them all). The clip names here must exist: test_expected_outputs.py checks it.
DEFAULT_TIER = ("point_2c_hand_720p30", "jump_off_720p30", "snooker_pot_720p30")


def expected_path(video: Path) -> Path:
    return EXPECTED_DIR / f"{video.stem}.json"


def truth_path(video: Path) -> Path:
    return video.with_name(video.stem + ".truth.json")


def analyze(video: Path, out_dir: Path):
    """The analysis the golden tests make: a carom clip with the CLI's defaults, a pool or snooker
    clip with its truth's game and table (both without the annotated video)."""
    sys.path.insert(0, str(REPO))
    from calibration.table import load_table
    from tabletrack.pipeline import AnalyzeOptions, analyze_video
    from tabletrack.truth_eval import ClipTruth

    if video.parent.name == "pool":
        truth = ClipTruth.load(truth_path(video))
        opts = AnalyzeOptions(
            game=truth.game, table=load_table(truth.table), out_dir=out_dir, annotated_video=False, progress=False
        )
    else:
        opts = AnalyzeOptions(out_dir=out_dir, annotated_video=False, progress=False)
    return analyze_video(video, opts)


def articles(reason: str) -> list[str]:
    """The rule citations of a call's reason: every outermost parenthesis that starts with a
    rulebook number ("003 art. 2(a), 3; 002 ART 27", "000 2.5")."""
    out, depth, start = [], 0, 0
    for i, ch in enumerate(reason):
        if ch == "(":
            if depth == 0:
                start = i + 1
            depth += 1
        elif ch == ")" and depth:
            depth -= 1
            if depth == 0 and re.match(r"\d{3} ", reason[start:i]):
                out.append(reason[start:i])
    return out


def _val(x: Any) -> Any:
    return None if x is None else getattr(x, "value", x)


def call_row(c) -> dict[str, Any]:
    return {
        "legal": c.legal,
        "foul": _val(c.foul),
        "points": c.points,
        "turn_over": c.turn_over,
        "articles": articles(c.reason),
    }


def cushion_row(c) -> dict[str, Any]:
    """003 art. 3, 10: the cue ball's cushion impacts as the rules count them (None in pool)."""
    return {
        "cue_ball": _val(c.cue_ball),
        "before_second_ball": c.cushions_before_second_ball,
        "total": c.cushions_total,
    }


def event_row(e) -> dict[str, Any]:
    from tracking.events import BallBall, NearMiss

    balls = (
        [b.value for b in e.balls]
        if isinstance(e, (BallBall, NearMiss))
        else ([e.ball.value] if hasattr(e, "ball") else [e.cue_ball.value] if hasattr(e, "cue_ball") else [])
    )
    at = getattr(e, "cushion", None) or getattr(e, "pocket", None)
    return {"kind": e.kind.value, "balls": balls, "at": _val(at), "t": round(float(e.t_s), 4)}


def outputs(video: Path, events: Sequence[Any], calls: Sequence[Any]) -> dict[str, Any]:
    """The expected-output document of one clip, from its events and calls."""
    sys.path.insert(0, str(REPO))
    from tabletrack.truth_eval import first_contacts, off_table, pocketings

    by_shot = {c.shot: c for c in calls}
    firsts = first_contacts(events)
    shots = []
    for n in sorted({c.shot for c in calls} | {e.shot for e in events}):
        ev = [e for e in events if e.shot == n]
        c = by_shot.get(n)
        fc = firsts.get(n)
        shots.append(
            {
                "shot": n,
                "call": None if c is None else call_row(c),
                "cue_cushions": None if c is None else cushion_row(c),
                "first_contact": None if fc is None else list(fc),
                "pocketings": [[b, p] for s, b, p in pocketings(ev)],
                "off_table": [b for s, b in off_table(ev)],
                "events": [event_row(e) for e in ev],
            }
        )
    return {"clip": video.stem, "shots": shots}


def truth_outputs(video: Path) -> dict[str, Any]:
    """The same document from the clip's physics truth: its events, judged as the clip's game."""
    sys.path.insert(0, str(REPO))
    from tabletrack.truth_eval import ClipTruth

    truth = ClipTruth.load(truth_path(video))
    return outputs(video, truth.events, truth.calls())


def truth_differences(doc: dict[str, Any], truth: dict[str, Any]) -> list[str]:
    """What of an expected-output document must equal the truth's: per shot the call (without
    its articles: a reason may cite more or less), the cue ball's cushion counts, the pocketings,
    the balls off the table, the first contact."""
    keys = ("shot", "call", "cue_cushions", "pocketings", "off_table", "first_contact")

    def key(s: dict[str, Any]) -> dict[str, Any]:
        k = {name: s[name] for name in keys}
        if k["call"] is not None:
            k["call"] = {n: v for n, v in k["call"].items() if n != "articles"}
        return k

    a = [key(s) for s in doc["shots"] if s["call"] is not None]
    b = [key(s) for s in truth["shots"] if s["call"] is not None]
    if len(a) != len(b):
        return [f"{len(a)} calls, the truth has {len(b)}"]
    return [
        f"shot {x['shot']}: {name} {x[name]!r}, truth {y[name]!r}"
        for x, y in zip(a, b)
        for name in keys
        if x[name] != y[name]
    ]


def differences(found: dict[str, Any], expected: dict[str, Any], tol_s: float = TIME_TOL_S) -> list[str]:
    """Where an analysis departs from its expected output: anything at all, but event times only
    beyond ``tol_s``."""
    out: list[str] = []
    fs, es = found["shots"], expected["shots"]
    if [s["shot"] for s in fs] != [s["shot"] for s in es]:
        return [f"shots {[s['shot'] for s in fs]}, expected {[s['shot'] for s in es]}"]
    for f, e in zip(fs, es):
        n = f["shot"]
        for name in ("call", "cue_cushions", "first_contact", "pocketings", "off_table"):
            if f[name] != e[name]:
                out.append(f"shot {n} {name}: {f[name]!r}, expected {e[name]!r}")
        out += _event_differences(n, f["events"], e["events"], tol_s)
    return out


def _event_differences(
    shot: int, found: list[dict[str, Any]], expected: list[dict[str, Any]], tol_s: float
) -> list[str]:
    """The events of one shot against the expected ones: the same events (kind, balls, where),
    in the same order, at times within ``tol_s``; events within ``tol_s`` of each other may come
    in either order (a break's contacts fall within a tenth of a millisecond of each other, and
    which of them the log lists first moves with the CPU's rounding of the detector's model)."""
    key = lambda r: json.dumps({k: v for k, v in r.items() if k != "t"}, sort_keys=True)  # noqa: E731
    if sorted(map(key, found)) != sorted(map(key, expected)):
        strip = lambda rows: [{k: v for k, v in r.items() if k != "t"} for r in rows]  # noqa: E731
        return [f"shot {shot} events: {strip(found)!r}, expected {strip(expected)!r}"]
    out: list[str] = []
    for i, (a, b) in enumerate(zip(found, expected)):
        if key(a) == key(b):
            if abs(a["t"] - b["t"]) > tol_s:
                out.append(f"shot {shot} event {i} ({a['kind']} {a['balls']}): t {a['t']}, expected {b['t']}")
            continue
        # another event here: right only when the expected one is found within tol_s of this time
        # and this one is expected within tol_s of it (a tie listed in the other order)
        twin = [x for x in found if key(x) == key(b) and abs(x["t"] - b["t"]) <= tol_s]
        mate = [x for x in expected if key(x) == key(a) and abs(x["t"] - a["t"]) <= tol_s]
        if not (twin and mate and abs(a["t"] - b["t"]) <= tol_s):
            out.append(
                f"shot {shot} event {i}: {a['kind']} {a['balls']} at t {a['t']}, expected {b['kind']} {b['balls']} "
                f"at t {b['t']}"
            )
    return out


def dumps(doc: dict[str, Any]) -> str:
    """The document as committed: indented, one line per event (diffs show events moved)."""
    rows: dict[str, str] = {}
    shots = []
    for s in doc["shots"]:
        keys = [f"@@{len(rows) + i}@@" for i in range(len(s["events"]))]
        rows.update({k: json.dumps(e) for k, e in zip(keys, s["events"])})
        shots.append({**s, "events": keys})
    text = json.dumps({**doc, "shots": shots}, indent=1)
    for k, row in rows.items():
        text = text.replace(f'"{k}"', row)
    return text + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("clips", nargs="*", help="clip names (default: every sample clip)")
    ap.add_argument("--force", action="store_true", help="write even where the outputs differ from the truth")
    args = ap.parse_args(argv)
    videos = CAROM_CLIPS + POOL_CLIPS
    if args.clips:
        unknown = set(args.clips) - {v.stem for v in videos}
        if unknown:
            ap.error(f"no such clip: {', '.join(sorted(unknown))}")
        videos = [v for v in videos if v.stem in args.clips]
    EXPECTED_DIR.mkdir(exist_ok=True)
    refused = 0
    for video in videos:
        t0 = time.perf_counter()
        with tempfile.TemporaryDirectory() as tmp:
            result = analyze(video, Path(tmp))
        doc = outputs(video, result.events, result.calls)
        dt = time.perf_counter() - t0
        diffs = truth_differences(doc, truth_outputs(video))
        if diffs and not args.force:
            refused += 1
            print(f"NOT written {video.stem} ({dt:.0f} s): differs from its truth: {diffs}", flush=True)
            continue
        expected_path(video).write_text(dumps(doc), encoding="utf-8")
        print(
            f"written {expected_path(video).relative_to(REPO)} ({dt:.0f} s)"
            + (f" DIFFERS FROM ITS TRUTH: {diffs}" if diffs else ""),
            flush=True,
        )
    return 1 if refused else 0


if __name__ == "__main__":
    sys.exit(main())
