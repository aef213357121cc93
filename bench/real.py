"""Benchmark on real data: the pipeline on footage and trajectories that no renderer made.

Reads ``../shared/data/real-dev/`` and ``../shared/data/billiard-pool-coco/`` (beside the repository;
never copied into it) and writes the "Real footage" section of BENCHMARKS.md, between the markers
``<!-- real:begin -->`` and ``<!-- real:end -->`` (re-running replaces that section only; the
section is appended where the markers are absent). A folder that is missing gives a line
"absent: ..." and its section is skipped.

Sections (each measures what the current code does; nothing here is tuned to the data):

1. three-cushion tracks (60 shots of a real match, another tracking system's trajectories): each
   shot file judged on its own as ``tabletrack events`` + ``judge`` do (read_tracks_csv →
   infer_events → judge_events, no referee input: the first shot of a file is then a break), and
   again with the one referee input a mid-game shot needs (``{"start": {"next_is_break": false}}``,
   the match's break excepted). Against labels.json: cue ball, point, the cue ball's cushions
   before the second object ball, shots found, needs_review of the wrong calls, time order.
2. nine-ball clips (6 broadcast clips, 1080p25): ``analyze --game nine-ball`` (no annotated video).
   Calibration error against the labelled corners (cushion-nose lines) and pocket openings, in px
   (spec points projected through the solved camera) and mm (labelled px back-projected onto the
   point's height vs the spec), with the table's symmetry that best fits the labels (the tracker's
   head may be the labels' foot: the table alone cannot tell); pocketed balls and pockets (pocket
   names translated to the labels' image convention through that symmetry), first contact, shots
   found, strike frame, time order, and the call the engine made.
3. eight-ball clips (4, 1024x576): ``analyze --game eight-ball``; the tracked balls at the first and
   last frame projected into the image against the labelled boxes: recall, precision, kind right;
   and the IoU of the projected playing surface with the labelled playing-field mask.
4. carom broadcast frames (37 jpgs, no labels): calibration of every frame, and how many of the
   three balls the carom detector (``--detector auto`` on a carom table) names in each.
5. billiard-pool-coco test split: bench/pool_calibration.py's summary, and the detector's own
   real-photo figures (models.evaluate.evaluate_real) unless ``--no-detector-eval``.

    python bench/real.py [--sections 1 2 3 4 5] [--out BENCHMARKS.md] [--no-detector-eval] [--keep DIR]
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import tempfile
import time
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import numpy as np

if TYPE_CHECKING:
    from calibration.camera import CameraModel
    from calibration.table import TableSpec
    from tabletrack.annotate import BallTrack
    from tabletrack.pipeline import AnalyzeResult
    from tracking.events import Event

REPO = Path(__file__).resolve().parents[1]
DATA = REPO.parent / "shared" / "data"
REAL = DATA / "real-dev"
COCO = DATA / "billiard-pool-coco"
sys.path.insert(0, str(REPO))

BEGIN = "<!-- real:begin -->"
END = "<!-- real:end -->"

# ---------------------------------------------------------------------------------------------
# pure helpers (tests/bench/test_real_bench.py)
# ---------------------------------------------------------------------------------------------

#: The table's symmetries as renamings of the DESIGN.md corner and pocket names.
_FLIP_END = {"head": "foot", "foot": "head"}
_FLIP_SIDE = {"left": "right", "right": "left"}


def rename(name: str, symmetry: str) -> str:
    """``name`` (head_left, side_right, ...) under ``symmetry``: ``identity``, ``ends`` (head and
    foot swapped), ``sides`` (left and right swapped) or ``both`` (the half turn)."""
    end, side = name.split("_")
    if symmetry in ("ends", "both"):
        end = _FLIP_END.get(end, end)
    if symmetry in ("sides", "both"):
        side = _FLIP_SIDE[side]
    return f"{end}_{side}"


SYMMETRIES = ("identity", "ends", "sides", "both")


def best_symmetry(
    spec_px: Mapping[str, Sequence[float]], label_px: Mapping[str, Sequence[float]]
) -> tuple[str, dict[str, float]]:
    """The symmetry under which the spec's named points (tracker frame, projected to px) best fit
    the labelled ones (labels' names): spec ``n`` is compared with label ``rename(n, sym)``.
    Returns the symmetry and the px distance per label name (of the names both have)."""
    best: tuple[float, str, dict[str, float]] | None = None
    for sym in SYMMETRIES:
        d = {}
        for n, p in spec_px.items():
            m = rename(n, sym)
            if m in label_px:
                d[m] = float(math.hypot(p[0] - label_px[m][0], p[1] - label_px[m][1]))
        if not d:
            continue
        total = sum(d.values())
        if best is None or total < best[0]:
            best = (total, sym, d)
    if best is None:
        return "identity", {}
    return best[1], best[2]


def compare_sets(found: Iterable, labelled: Iterable) -> dict[str, list]:
    """``right`` (in both), ``missed`` (labelled only), ``extra`` (found only), each sorted."""
    f, t = set(found), set(labelled)

    def key(x: Any) -> tuple[str, ...]:
        return tuple(str(v) for v in x) if isinstance(x, tuple) else (str(x),)

    return {"right": sorted(f & t, key=key), "missed": sorted(t - f, key=key), "extra": sorted(f - t, key=key)}


def in_time_order(times: Sequence[float]) -> bool:
    return all(b >= a for a, b in zip(times, times[1:]))


def parse_bbox_text(text: str) -> list[tuple[float, float, float, float, int]]:
    """``x y w h class`` lines (top-left corner, px) → (cx, cy, w, h, class) with the box centre."""
    out = []
    for line in text.splitlines():
        parts = line.split()
        if len(parts) < 5:
            continue
        x, y, w, h = (float(v) for v in parts[:4])
        out.append((x + w / 2.0, y + h / 2.0, w, h, int(float(parts[4]))))
    return out


#: The eight-ball labels' classes.
LABEL_KIND = {1: "cue", 2: "eight", 3: "solid", 4: "stripe"}


def ball_kind(ball: str) -> str | None:
    """A pool ball id's kind in the eight-ball labels' terms (models.classes.pool_kind); None for
    anything else."""
    from models.classes import pool_kind

    return pool_kind(ball)


def match_boxes(
    boxes: Sequence[tuple[float, float, float, float, int]], tracked: Sequence[tuple[float, float, str]]
) -> dict[str, Any]:
    """One-to-one matching of labelled boxes (cx, cy, w, h, class) with tracked balls (u, v, id)
    in px: a pair matches where the ball lies within one ball radius (half the box's mean side) of
    the box centre; nearest pairs first. Returns the counts ``labelled``, ``tracked``, ``matched``
    (recall = matched / labelled, precision = matched / tracked), ``kind_right`` (matched pairs
    whose id is of the box's class) and the pairs (box index, ball index, distance px)."""
    cand = []
    for i, (cx, cy, w, h, _) in enumerate(boxes):
        r = (w + h) / 4.0
        for j, (u, v, _) in enumerate(tracked):
            d = math.hypot(u - cx, v - cy)
            if d <= r:
                cand.append((d, i, j))
    cand.sort()
    used_i, used_j, pairs = set(), set(), []
    for d, i, j in cand:
        if i in used_i or j in used_j:
            continue
        used_i.add(i)
        used_j.add(j)
        pairs.append((i, j, d))
    kind_right = sum(1 for i, j, _ in pairs if LABEL_KIND.get(boxes[i][4]) == ball_kind(tracked[j][2]))
    return {
        "labelled": len(boxes),
        "tracked": len(tracked),
        "matched": len(pairs),
        "kind_right": kind_right,
        "pairs": pairs,
    }


def mask_iou(a: np.ndarray, b: np.ndarray) -> float:
    a, b = np.asarray(a, bool), np.asarray(b, bool)
    union = np.logical_or(a, b).sum()
    return float(np.logical_and(a, b).sum() / union) if union else float("nan")


def replace_section(text: str, body: str, begin: str = BEGIN, end: str = END) -> str:
    """:func:`sections.replace_section` with this script's markers by default."""
    import sections  # bench/sections.py (this script's folder is on sys.path when it runs)

    return sections.replace_section(text, body, begin, end)


def md_table(head: Sequence[str], rows: Iterable[Sequence[Any]]) -> str:
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    return "\n".join(lines)


def _f(x: float | None, nd: int = 1) -> str:
    return "-" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:.{nd}f}"


def _first_line(e: BaseException) -> str:
    s = str(e).strip().splitlines()
    return f"{type(e).__name__}: {s[0] if s else ''}"


# ---------------------------------------------------------------------------------------------
# 1. three-cushion tracks
# ---------------------------------------------------------------------------------------------

MID_GAME = {"start": {"next_is_break": False}}


def _judge_shot_events(events: Sequence[Event], referee: Mapping[str, Any] | None) -> dict:
    """The calls as ``tabletrack events --game`` / ``judge`` make them: with the carom table's
    break spots, so a log with no referee input begins with a break only where its balls stand
    in the break position (rules/core/opening.py)."""
    from calibration.table import load_table
    from rules import judge_events
    from tabletrack.tables import table_spots
    from tracking.events import ShotStart

    calls, _ = judge_events(events, "three-cushion", referee, table=table_spots(load_table("carom")))
    starts = [e for e in events if isinstance(e, ShotStart)]
    return {"events": events, "calls": calls, "starts": starts}


def section_tracks() -> tuple[str, dict]:
    folder = REAL / "three-cushion-tracks"
    if not (folder / "labels.json").is_file():
        return f"absent: {folder}", {}
    from calibration.table import load_table
    from tracking.infer import infer_events
    from tracking.tracks_csv import read_tracks_csv

    table = load_table("carom")
    labels = json.loads((folder / "labels.json").read_text())
    rows = []
    for lab in labels:
        path = folder / lab["file"]
        r = {"index": lab["index"], "label": lab}
        try:
            events = infer_events(read_tracks_csv(path), table)
            user = _judge_shot_events(events, None)
            mid = _judge_shot_events(events, None if lab["index"] == 0 else MID_GAME)
        except Exception as e:  # a failure of the pipeline is a result to report
            r["error"] = _first_line(e)
            rows.append(r)
            continue
        for tag, res in (("user", user), ("mid", mid)):
            c = res["calls"][0] if res["calls"] else None
            r[tag] = {
                "shots": len(res["starts"]),
                "cue": res["starts"][0].cue_ball.value if res["starts"] else None,
                "point": bool(c and c.points > 0),
                "cbs": None if c is None else c.cushions_before_second_ball,
                "review": bool(c and c.needs_review),
                "foul": None if c is None or c.foul is None else c.foul.value,
                "break": bool(c and c.break_shot),
                "extra_calls": [
                    (x.shot, x.points, None if x.foul is None else x.foul.value, x.needs_review)
                    for x in res["calls"][1:]
                ],
                "ordered": in_time_order([e.t_s for e in res["events"]]),
            }
        rows.append(r)

    def stats(tag: str) -> dict:
        ok = [r for r in rows if tag in r]
        n = len(ok)
        cue = sum(r[tag]["cue"] == r["label"]["cue_ball"] for r in ok)
        pt_wrong = [r for r in ok if r[tag]["point"] != bool(r["label"]["point"])]
        with2 = [r for r in ok if r["label"].get("second_object_ball")]
        cbs = sum(r[tag]["cbs"] == r["label"]["cushions_before_second"] for r in with2)
        one_shot = sum(r[tag]["shots"] == 1 for r in ok)
        confident_wrong = [r for r in pt_wrong if not r[tag]["review"]]
        extra_conf = sum(1 for r in ok for x in r[tag]["extra_calls"] if not x[3])
        return {
            "n": n,
            "cue": cue,
            "points_right": n - len(pt_wrong),
            "pt_wrong": pt_wrong,
            "cbs": cbs,
            "n2": len(with2),
            "one_shot": one_shot,
            "confident_wrong": confident_wrong,
            "ordered": sum(r[tag]["ordered"] for r in ok),
            "sure_right": sum(
                1 for r in ok if r["label"]["confidence"] == "sure" and r[tag]["point"] == bool(r["label"]["point"])
            ),
            "sure": sum(1 for r in ok if r["label"]["confidence"] == "sure"),
            "extra_calls_confident": extra_conf,
            "wrong_reviewed": len(pt_wrong) - len(confident_wrong),
            "fouls": sum(1 for r in ok if r[tag]["foul"]),
        }

    su, sm = stats("user"), stats("mid")
    errors = [r for r in rows if "error" in r]
    head = [
        "measure",
        "as a user runs one shot file (no referee input: a break only from the break position)",
        "mid-game (referee input: not a break; shot 0 as the break)",
    ]
    body = [
        ["cue ball right (shot 1)", f"{su['cue']}/{su['n']}", f"{sm['cue']}/{sm['n']}"],
        ["points right", f"{su['points_right']}/{su['n']}", f"{sm['points_right']}/{sm['n']}"],
        ["points right, labels 'sure' only", f"{su['sure_right']}/{su['sure']}", f"{sm['sure_right']}/{sm['sure']}"],
        [
            "cushions before the 2nd ball right (labels with a 2nd ball)",
            f"{su['cbs']}/{su['n2']}",
            f"{sm['cbs']}/{sm['n2']}",
        ],
        ["exactly 1 shot found", f"{su['one_shot']}/{su['n']}", f"{sm['one_shot']}/{sm['n']}"],
        [
            "wrong point calls flagged needs_review",
            f"{su['wrong_reviewed']}/{len(su['pt_wrong'])}",
            f"{sm['wrong_reviewed']}/{len(sm['pt_wrong'])}",
        ],
        [
            "**confident wrong point calls** (wrong, needs_review false)",
            f"**{len(su['confident_wrong'])}**",
            f"**{len(sm['confident_wrong'])}**",
        ],
        ["shot-1 calls that are fouls", str(su["fouls"]), str(sm["fouls"])],
        [
            "calls of extra shots (beyond shot 1) not flagged for review",
            str(su["extra_calls_confident"]),
            str(sm["extra_calls_confident"]),
        ],
        ["event log in time order", f"{su['ordered']}/{su['n']}", f"{sm['ordered']}/{sm['n']}"],
    ]
    lines = [md_table(head, body), ""]
    if errors:
        lines += ["Pipeline errors: " + "; ".join(f"shot {r['index']}: {r['error']}" for r in errors), ""]

    def wrong_rows(tag: str) -> list[list[str]]:
        out = []
        for r in rows:
            if tag not in r:
                continue
            x, lab = r[tag], r["label"]
            wrong = []
            if x["cue"] != lab["cue_ball"]:
                wrong.append("cue")
            if x["point"] != bool(lab["point"]):
                wrong.append("point")
            if lab.get("second_object_ball") and x["cbs"] != lab["cushions_before_second"]:
                wrong.append("cushions")
            if x["shots"] != 1:
                wrong.append(f"{x['shots']} shots")
            if not wrong:
                continue
            out.append(
                [
                    f"{r['index']:03d}",
                    ", ".join(wrong),
                    lab["cue_ball"],
                    str(x["cue"]),
                    "P" if lab["point"] else "-",
                    "P" if x["point"] else "-",
                    str(lab["cushions_before_second"]),
                    str(x["cbs"]),
                    x["foul"] or "",
                    "yes" if x["review"] else "no",
                    lab["confidence"],
                    (lab.get("note") or "")[:60],
                ]
            )
        return out

    whead = [
        "shot",
        "wrong",
        "cue (label)",
        "cue (found)",
        "point (label)",
        "point (found)",
        "cush. before 2nd (label)",
        "(found)",
        "foul",
        "needs_review",
        "label",
        "label note",
    ]
    for tag, title in (("user", "as a user runs it"), ("mid", "mid-game")):
        w = wrong_rows(tag)
        lines += [
            "<details><summary>Shots with a difference, " + title + f" ({len(w)})</summary>",
            "",
            md_table(whead, w),
            "",
            "</details>",
            "",
        ]
    summary = {
        "user": {k: v for k, v in su.items() if not isinstance(v, list)},
        "mid": {k: v for k, v in sm.items() if not isinstance(v, list)},
        "confident_wrong_user": [r["index"] for r in su["confident_wrong"]],
        "confident_wrong_mid": [r["index"] for r in sm["confident_wrong"]],
        "errors": [(r["index"], r["error"]) for r in errors],
    }
    return "\n".join(lines), summary


# ---------------------------------------------------------------------------------------------
# 2. nine-ball clips
# ---------------------------------------------------------------------------------------------

SPEC_CORNER_NAMES = ("head_right", "foot_right", "foot_left", "head_left")  # order of nose_corners_mm


def _analyze(video: Path, game: str, out_dir: Path, classifier: Path | None = None) -> AnalyzeResult:
    from tabletrack.pipeline import AnalyzeOptions, analyze_video

    opts = AnalyzeOptions(
        game=game, table="pool", out_dir=out_dir, annotated_video=False, progress=False, classifier=classifier
    )
    return analyze_video(video, opts)


def calibration_errors(
    camera: CameraModel,
    table: TableSpec,
    corners_px: Mapping[str, Sequence[float]],
    pockets_px: Mapping[str, Sequence[float]],
) -> dict:
    """Spec corners and pocket holes through ``camera`` against the labelled px, under the symmetry
    that best fits the labelled corners; and the labelled px back-projected onto the same height
    against the spec positions (mm). Corners twice: on the cloth plane (z = 0: where the dark line
    under the cushion nose lies) and at cushion-nose height; pockets: the hole centre on the cloth."""
    L, W = table.length_mm, table.width_mm
    plan = dict(zip(SPEC_CORNER_NAMES, [(0.0, 0.0), (L, 0.0), (L, W), (0.0, W)]))
    out: dict[str, Any] = {}

    def errs(
        spec: Mapping[str, tuple[float, float]], z: float, labelled: Mapping[str, Sequence[float]], sym: str | None
    ) -> tuple[str, list[float], list[float]]:
        proj = {n: camera.project(np.array([[x, y, z]]))[0] for n, (x, y) in spec.items()}
        if sym is None:
            sym, _ = best_symmetry(proj, labelled)
        px, mm = [], []
        for n, (x, y) in spec.items():
            m = rename(n, sym)
            if m not in labelled:
                continue
            px.append(float(np.hypot(*(proj[n] - np.asarray(labelled[m], float)))))
            q = camera.pixel_to_plane(np.array([labelled[m]], float), z)[0]
            mm.append(float(np.hypot(q[0] - x, q[1] - y)))
        return sym, px, mm

    sym, out["corner_px"], out["corner_mm"] = errs(plan, 0.0, corners_px, None)
    _, out["corner_nose_px"], out["corner_nose_mm"] = errs(plan, table.cushion_nose_height_mm, corners_px, sym)
    holes = {p.name: p.hole_centre_mm for p in table.pockets}
    _, out["pocket_px"], out["pocket_mm"] = errs(holes, 0.0, pockets_px, sym)
    out["symmetry"] = sym
    return out


class TrainedOn(frozenset[str]):
    """Clip names (without ``.mp4``) the shipped classifier was trained on; ``name in it`` also
    holds for a transformed copy of such a clip (``bench/real_variants.py`` names them
    ``CLIP__VARIANT``): a mirrored clip shows the same balls, so its figure is no held-out one."""

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and frozenset.__contains__(self, name.split("__")[0])


def classifier_trained_on() -> TrainedOn:
    """The real clips whose crops the shipped classifier was trained on (models/real_labels.json,
    less its ``_held_out`` list), without the ``.mp4``."""
    f = REPO / "models" / "real_labels.json"
    if not f.is_file():
        return TrainedOn()
    spec = json.loads(f.read_text())
    held = set(spec.get("_held_out", []))
    return TrainedOn(k for k in spec if not k.startswith("_") and k not in held)


def section_nine(work: Path, classifier: Path | None = None) -> tuple[str, dict]:
    folder = REAL / "nine-ball-clips"
    if not (folder / "labels.json").is_file():
        return f"absent: {folder}", {}
    from calibration.table import load_table
    from tabletrack.truth_eval import first_contacts
    from tracking.events import BallBall, Pocketed, ShotStart
    from tracking.unseen_runs import lost_in_tracks_csv

    table = load_table("pool")
    trained = classifier_trained_on() if classifier is None else TrainedOn()
    labels = json.loads((folder / "labels.json").read_text())
    clips = sorted((k for k in labels if k != "_meta"), key=lambda k: int("".join(c for c in k if c.isdigit()) or 0))
    rows: list[dict[str, Any]] = []
    summary: dict[str, Any] = {}
    for name in clips:
        lab = labels[name]
        video = folder / name
        t0 = time.perf_counter()
        r: dict[str, Any] = {"clip": Path(name).stem}
        try:
            res = _analyze(video, "nine-ball", work / Path(name).stem, classifier)
        except Exception as e:
            r["error"] = _first_line(e)
            r["s"] = time.perf_counter() - t0
            rows.append(r)
            print(f"  {name}: {r['error']}", flush=True)
            continue
        r["s"] = time.perf_counter() - t0
        cal = lab["calibration"]
        ce = calibration_errors(res.camera, table, cal["corners_px"], cal["pockets_px"])
        sym = ce["symmetry"]
        r.update(ce)
        ev = res.events
        starts = [e for e in ev if isinstance(e, ShotStart)]
        lab_shots = lab["shots"]
        found_p = [(e.ball.value, rename(e.pocket.value, sym), e.frame, e.shot) for e in ev if isinstance(e, Pocketed)]
        lab_p = [(str(p["ball"]), p["pocket"], p.get("drop_frame")) for s in lab_shots for p in s.get("pocketed", [])]
        lab_p += [("cue", "?", None) for s in lab_shots if (s.get("scratch") or {}).get("cue_ball_pocketed")]
        cmp = compare_sets([(b, p) for b, p, *_ in found_p], [(b, p) for b, p, _ in lab_p])
        # a found ball right but in another pocket
        r["pockets"] = cmp
        r["pocket_balls"] = compare_sets({b for b, *_ in found_p}, {b for b, *_ in lab_p})
        jaw = {str(j.get("ball")) for s in lab_shots for j in s.get("jaw_rattles_stayed_out", [])}
        near = {str(j.get("ball")) for s in lab_shots for j in s.get("near_pocket_misses", [])}
        r["extra_jaw"] = [b for b, _ in cmp["extra"] if b in jaw]
        r["extra_near"] = [b for b, _ in cmp["extra"] if b in near]
        dframes = []
        for b, _p, f, _ in found_p:
            for lb, _lp, lf in lab_p:
                if lb == b and isinstance(lf, int):
                    dframes.append(f - lf)
        r["drop_dframe"] = dframes
        fc = first_contacts(ev)
        r["first_contact"] = []
        r["strike_dframe"] = []
        for s in lab_shots:
            sf = s.get("strike_frame")
            if starts:
                k = min(starts, key=lambda e: abs(e.frame - sf)) if isinstance(sf, int) else starts[0]
                got = fc.get(k.shot)
                if isinstance(sf, int):
                    r["strike_dframe"].append(k.frame - sf)
            else:
                got = None
            want = str((s.get("first_contact") or {}).get("ball"))
            r["first_contact"].append((want, None if got is None else got[1], got is not None and got[1] == want))
        r["cue_found"] = [e.cue_ball.value for e in starts]
        r["shots_found"] = len(starts)
        r["shots_label"] = lab.get("n_shots", len(lab_shots))
        r["ordered"] = in_time_order([e.t_s for e in ev])
        r["calls"] = [
            (
                c.summary or (c.foul.value if c.foul else ("legal" if c.legal else "foul")),
                c.legal,
                c.needs_review,
                c.break_shot,
            )
            for c in res.calls
        ]
        r["label_break"] = [bool(s.get("break")) for s in lab_shots]
        r["n_ballball"] = sum(isinstance(e, BallBall) for e in ev)
        runs = lost_in_tracks_csv(Path(res.out_dir) / "tracks.csv", table)
        r["unseen_runs"] = [(x.ball.value, x.last_seen_frame, x.frames) for x in runs]
        r["calib_rms_px"] = res.camera.reprojection_error_px
        rows.append(r)
        print(
            f"  {r['clip']}: {r['s']:.0f} s, corners {_f(np.median(r['corner_px']))} px ({r['symmetry']}), pockets "
            f"{len(cmp['right'])}/{len(lab_p)} (+{len(cmp['extra'])}), first contact "
            f"{[x[:2] for x in r['first_contact']]}, shots {r['shots_found']}/{r['shots_label']}",
            flush=True,
        )

    head = [
        "clip",
        "calib: symmetry to labels",
        "corners px median / max (cloth plane; nose height)",
        "corners mm median / max (cloth plane; nose height)",
        "pocket holes px median / max",
        "pocket holes mm median / max",
        "pocketed (ball, pocket) right / labelled",
        "missed",
        "extra",
        "pocket frame − drop frame",
        "first contact (label → found)",
        "cue ball found",
        "shots found / labelled",
        "strike frame error",
        "ball-ball events",
        "moving ball unseen > 1 frame on open cloth (ball@frame: frames)",
        "time order",
        "call (needs review)",
        "s",
    ]
    body = []
    for r in rows:
        if "error" in r:
            body.append([r["clip"], f"FAILED: {r['error']}"] + ["-"] * (len(head) - 3) + [f"{r['s']:.0f}"])
            continue

        def mm(v: list[float]) -> str:
            return f"{_f(np.median(v))} / {_f(max(v))}" if v else "-"

        body.append(
            [
                r["clip"] + (" †" if r["clip"] in trained else ""),
                r["symmetry"],
                f"{mm(r['corner_px'])}; {mm(r['corner_nose_px'])}",
                f"{mm(r['corner_mm'])}; {mm(r['corner_nose_mm'])}",
                mm(r["pocket_px"]),
                mm(r["pocket_mm"]),
                f"{len(r['pockets']['right'])}/{len(r['pockets']['right']) + len(r['pockets']['missed'])}",
                " ".join(f"{b}@{p}" for b, p in r["pockets"]["missed"]) or "-",
                " ".join(
                    f"{b}@{p}"
                    + (" (jaw, stayed out)" if b in r["extra_jaw"] else "")
                    + (" (near miss)" if b in r["extra_near"] else "")
                    for b, p in r["pockets"]["extra"]
                )
                or "-",
                " ".join(f"{d:+d}" for d in r["drop_dframe"]) or "-",
                ", ".join(f"{w} → {g}" + ("" if ok else " ✗") for w, g, ok in r["first_contact"]),
                " ".join(r["cue_found"]) or "-",
                f"{r['shots_found']}/{r['shots_label']}",
                " ".join(f"{d:+d}" for d in r["strike_dframe"]) or "-",
                r["n_ballball"],
                " ".join(f"{b}@{f}: {n}" for b, f, n in r["unseen_runs"]) or "none",
                "yes" if r["ordered"] else "NO",
                "; ".join(f"{s}{' (review)' if rv else ''}" for s, _, rv, _ in r["calls"]) or "none",
                f"{r['s']:.0f}",
            ]
        )
    ok = [r for r in rows if "error" not in r]
    all_c = [v for r in ok for v in r["corner_px"]]
    all_p = [v for r in ok for v in r["pocket_px"]]
    n_lab = sum(len(r["pockets"]["right"]) + len(r["pockets"]["missed"]) for r in ok)
    fcs = [x for r in ok for x in r["first_contact"]]
    breaks = sum(1 for r in ok for (_, _, _, b), lb in zip(r["calls"], r["label_break"]) if b == lb)
    summary = {
        "clips": len(rows),
        "calibrated": len(ok),
        "corner_px_median": float(np.median(all_c)) if all_c else None,
        "pocket_px_median": float(np.median(all_p)) if all_p else None,
        "pocketed_right": sum(len(r["pockets"]["right"]) for r in ok),
        "pocketed_labelled": n_lab,
        "pocketed_extra": sum(len(r["pockets"]["extra"]) for r in ok),
        "first_contact_right": sum(x[2] for x in fcs),
        "first_contacts": len(fcs),
        "shots_right": sum(r["shots_found"] == r["shots_label"] for r in ok),
        "ordered": sum(r["ordered"] for r in ok),
        "unseen_runs": sum(len(r["unseen_runs"]) for r in ok),
        "unseen_longest": max((n for r in ok for *_, n in r["unseen_runs"]), default=0),
    }
    text = [
        md_table(head, body),
        "",
        f"Nine-ball clips: calibrated {len(ok)}/{len(rows)}; corner error median {_f(summary['corner_px_median'])} px, "
        f"pocket-opening error median {_f(summary['pocket_px_median'])} px; pocketings right "
        f"{summary['pocketed_right']}/{n_lab} (ball and pocket), {summary['pocketed_extra']} extra; first contact "
        f"right {summary['first_contact_right']}/{len(fcs)}; shot count right {summary['shots_right']}/{len(ok)}; "
        f"event log in time order {summary['ordered']}/{len(ok)}; runs of more than one frame in which a moving "
        f"ball was unseen on open cloth: {summary['unseen_runs']} (longest {summary['unseen_longest']} frames); "
        f"the engine's break flag agrees with the labels on "
        f"{breaks} of the calls (no referee input: the first shot is a break only where the balls stand racked, 000 2.2).",
        "",
        "Corners: the labels' intersections of the dark lines along the cushion noses against the spec's "
        "playing-surface corners projected on the cloth plane (z = 0) and at cushion-nose height (which one the "
        "dark line is, is the labels' definition: the symmetry is chosen on the cloth plane); pockets: the "
        "labels' centroid of the dark opening seen from above against the spec's hole centre on the cloth "
        "(not the same definition: the labels give ±4 px). mm: the labelled px back-projected onto that "
        'height against the spec. "symmetry": the renaming of the tracker\'s table frame that best fits the '
        "labels' image convention (head = image left, left = image top); pocket names in this table are the "
        "labels' (translated through it). Frames: decode order, as the labels.",
        "",
        "† the shipped classifier was fine-tuned on crops of this clip's balls (models/real_labels.json, "
        "models/MODEL_CARD.md): its figures here are not held out; the other clips' are.",
    ]
    summary["trained_on"] = sorted(trained)
    summary["rows"] = [{k: v for k, v in r.items() if k not in ("pockets",)} for r in rows]
    return "\n".join(text), summary


# ---------------------------------------------------------------------------------------------
# 3. eight-ball clips
# ---------------------------------------------------------------------------------------------


def lost_samples(tracks_csv: Path) -> set[tuple[str, int]]:
    """(ball, frame) of the samples with confidence 0 in a ``tracks.csv``: a *lost* ball, held
    where it was last predicted (a pocketed ball, one gone under a hand for long), which the
    tracker does not claim to see."""
    import csv

    if not tracks_csv.is_file():
        return set()
    with tracks_csv.open(encoding="utf-8", newline="") as f:
        return {
            (row["ball"], int(row["frame"]))
            for row in csv.DictReader(f)
            if row.get("confidence") not in (None, "") and float(row["confidence"]) <= 0.0
        }


def _tracked_at(
    tracks: Sequence[BallTrack], frame: int, lost: set[tuple[str, int]] | None = None
) -> tuple[int, list[tuple[str, float, float, bool]]]:
    """The analysed frame nearest ``frame`` and every ball's sample there (those in ``lost`` left out)."""
    frames = sorted({int(f) for tr in tracks for f in tr.frames})
    if not frames:
        return frame, []
    f0 = min(frames, key=lambda f: abs(f - frame))
    out = []
    for tr in tracks:
        idx = np.nonzero(np.asarray(tr.frames) == f0)[0]
        if len(idx) and (tr.ball.value, f0) not in (lost or set()):
            i = int(idx[0])
            out.append((tr.ball.value, float(tr.x_mm[i]), float(tr.y_mm[i]), bool(tr.observed[i])))
    return f0, out


def playing_field_mask(camera: CameraModel, table: TableSpec, h: int, w: int) -> np.ndarray:
    import cv2

    L, W = table.length_mm, table.width_mm
    t = np.linspace(0.0, 1.0, 50)
    edge = np.concatenate(
        [
            np.column_stack([t * L, 0 * t]),
            np.column_stack([L + 0 * t, t * W]),
            np.column_stack([(1 - t) * L, W + 0 * t]),
            np.column_stack([0 * t, (1 - t) * W]),
        ]
    )
    px = camera.project(np.column_stack([edge, np.zeros(len(edge))]))
    m = np.zeros((h, w), np.uint8)
    cv2.fillPoly(m, [np.round(px).astype(np.int32)], 1)
    return m.astype(bool)


def section_eight(work: Path, classifier: Path | None = None) -> tuple[str, dict]:
    folder = REAL / "eight-ball-clips"
    if not folder.is_dir():
        return f"absent: {folder}", {}
    import cv2

    from calibration.table import load_table

    table = load_table("pool")
    trained = classifier_trained_on() if classifier is None else TrainedOn()
    rows = []
    for clip in sorted(p for p in folder.iterdir() if p.is_dir()):
        videos = sorted(clip.glob("*.mp4"))
        if not videos:
            continue
        r: dict[str, Any] = {"clip": clip.name}
        cap = cv2.VideoCapture(str(videos[0]))
        n = 0
        while cap.grab():
            n += 1
        cap.release()
        t0 = time.perf_counter()
        try:
            res = _analyze(videos[0], "eight-ball", work / clip.name, classifier)
        except Exception as e:
            r.update(error=_first_line(e), s=time.perf_counter() - t0)
            rows.append(r)
            print(f"  {clip.name}: {r['error']}", flush=True)
            continue
        r["s"] = time.perf_counter() - t0
        cam = res.camera
        r["calib_rms_px"] = cam.reprojection_error_px
        lost = lost_samples(Path(res.out_dir) / "tracks.csv")
        for which, frame in (("first", 0), ("last", n - 1)):
            bb = clip / "bounding_boxes" / f"frame_{which}_bbox.txt"
            boxes = parse_bbox_text(bb.read_text()) if bb.is_file() else []
            f0, balls = _tracked_at(res.tracks, frame, lost)
            on = [(b, x, y) for b, x, y, obs in balls]
            uv = cam.project(np.array([[x, y, table.ball_radius_mm] for _, x, y in on]).reshape(-1, 3))
            tracked = [(float(u), float(v), b) for (b, _, _), (u, v) in zip(on, uv)]
            m = match_boxes(boxes, tracked)
            r[which] = {
                **{k: v for k, v in m.items() if k != "pairs"},
                "frame_used": f0,
                "frame": frame,
                "observed": sum(1 for *_, obs in balls if obs),
            }
            mask_path = clip / "masks" / f"frame_{which}.png"
            if mask_path.is_file():
                mk = cast("np.ndarray", cv2.imread(str(mask_path), cv2.IMREAD_UNCHANGED))  # the file is there
                mk = mk[..., 0] if mk.ndim == 3 else mk
                r[which]["iou"] = mask_iou(mk == 5, playing_field_mask(cam, table, *mk.shape[:2]))
        r["shots"] = len(res.calls)
        r["calls"] = [
            (c.summary or ("legal" if c.legal else "foul")) + (" (review)" if c.needs_review else "") for c in res.calls
        ]
        rows.append(r)
        print(
            f"  {clip.name}: {r['s']:.0f} s, first {r['first']['matched']}/{r['first']['labelled']} "
            f"last {r['last']['matched']}/{r['last']['labelled']}, IoU {_f(r['first'].get('iou'), 2)}",
            flush=True,
        )
    head = [
        "clip",
        "frame (used)",
        "labelled balls",
        "tracked balls",
        "recall",
        "precision",
        "kind right / matched",
        "playing-field IoU",
        "calib rms px",
        "shots",
        "calls",
        "s",
    ]
    body = []
    for r in rows:
        if "error" in r:
            body.append([r["clip"], f"FAILED: {r['error']}"] + ["-"] * (len(head) - 3) + [f"{r['s']:.0f}"])
            continue
        for which in ("first", "last"):
            x = r[which]
            body.append(
                [
                    (r["clip"] + (" †" if r["clip"] in trained else "")) if which == "first" else "",
                    f"{which} {x['frame']} ({x['frame_used']})",
                    x["labelled"],
                    x["tracked"],
                    f"{x['matched']}/{x['labelled']}",
                    f"{x['matched']}/{x['tracked']}",
                    f"{x['kind_right']}/{x['matched']}",
                    _f(x.get("iou"), 3),
                    _f(r["calib_rms_px"], 2) if which == "first" else "",
                    r["shots"] if which == "first" else "",
                    "; ".join(r["calls"]) if which == "first" else "",
                    f"{r['s']:.0f}" if which == "first" else "",
                ]
            )
    ok = [r for r in rows if "error" not in r]

    def tot(k: str, rs: Sequence[dict] = ok) -> int:
        return sum(r[w][k] for r in rs for w in ("first", "last"))

    held = [r for r in ok if r["clip"] not in trained]

    summary: dict[str, Any] = {
        "clips": len(rows),
        "calibrated": len(ok),
        "labelled": tot("labelled") if ok else 0,
        "matched": tot("matched") if ok else 0,
        "tracked": tot("tracked") if ok else 0,
        "kind_right": tot("kind_right") if ok else 0,
        "held_out": [r["clip"] for r in held],
        "held_out_labelled": tot("labelled", held),
        "held_out_kind_right": tot("kind_right", held),
        "trained_on": sorted(r["clip"] for r in ok if r["clip"] in trained),
    }
    right = summary["kind_right"] / summary["labelled"] if summary["labelled"] else float("nan")
    text = [
        md_table(head, body),
        "",
        f"Eight-ball clips: calibrated {len(ok)}/{len(rows)}; over the first and last frames, recall "
        f"{summary['matched']}/{summary['labelled']}, precision {summary['matched']}/{summary['tracked']}, kind right "
        f"{summary['kind_right']}/{summary['matched']} (cue / eight / solid 1-7 / stripe 9-15); labelled balls tracked "
        f"with the right kind {summary['kind_right']}/{summary['labelled']} ({100 * right:.0f} %), "
        + (
            f"on the clips the classifier was not trained on ({', '.join(summary['held_out'])}) "
            f"{summary['held_out_kind_right']}/{summary['held_out_labelled']}"
            if summary["held_out"]
            else "every clip trained on by the shipped classifier (no held-out clip: models/MODEL_CARD.md gives the "
            "held-out figure, each clip left out of training in turn)"
        )
        + ". A tracked ball matches "
        "a box when its centre, projected through the solved camera at ball-centre height, lies within one ball "
        "radius (half the box's mean side) of the box centre. Tracked balls: every ball the tracker has a sample "
        "of at the analysed frame nearest the labelled one (bridged samples included; a lost ball, held where it "
        "was last predicted with confidence 0 in tracks.csv, as a pocketed one is, not). IoU: the spec's playing "
        "surface projected on the cloth plane against the mask's playing field (class 5).",
        "",
        "† the shipped classifier was fine-tuned on crops of this clip's balls (models/real_labels.json, "
        "models/MODEL_CARD.md): its figures here are not held out; the other clips' are.",
    ]
    summary["rows"] = rows
    return "\n".join(text), summary


# ---------------------------------------------------------------------------------------------
# 4. carom broadcast frames
# ---------------------------------------------------------------------------------------------


def section_carom_frames(work: Path) -> tuple[str, dict]:
    folder = REAL / "carom-broadcast-frames"
    frames = sorted(folder.glob("*.jpg")) if folder.is_dir() else []
    if not frames:
        return f"absent: {folder}", {}
    import cv2

    from calibration.auto import calibrate_frame
    from calibration.table import load_table
    from tabletrack.pipeline import make_detector
    from vision.rectify import Rectifier
    from vision.source import Frame

    table = load_table("carom")
    rows = []
    errors: dict[str, list[str]] = {}
    for p in frames:
        img = cast("np.ndarray", cv2.imread(str(p)))  # a frame of the folder's listing
        r: dict[str, Any] = {"frame": p.stem}
        t0 = time.perf_counter()
        try:
            cal = calibrate_frame(img, table)
        except Exception as e:
            r["error"] = _first_line(e)
            errors.setdefault(r["error"], []).append(p.stem)
            r["s"] = time.perf_counter() - t0
            rows.append(r)
            continue
        r["s"] = time.perf_counter() - t0
        cam = cal.camera
        r.update(
            rms_px=cal.reprojection_error_px,
            rms_mm=cal.reprojection_error_mm,
            diamonds=cal.n_diamond_inliers,
            corners_px=cam.project(np.array(table.nose_corners_mm())).tolist(),
        )
        rect = Rectifier(cam, table, 0.5)
        det = make_detector(table, rect, "auto", img)
        dets = det.detect_frame(Frame(0, 0.0, img))
        by: dict[str | None, list[tuple[float, float, float]]] = {}
        for d in dets:
            by.setdefault(d.label.value if d.label is not None else None, []).append((d.x_mm, d.y_mm, d.score))
        r["dets"] = by
        r["n_dets"] = len(dets)
        rows.append(r)
    ok = [r for r in rows if "error" not in r]
    colours = ("white", "yellow", "red")
    found = {c: sum(1 for r in ok if r["dets"].get(c)) for c in colours}
    all3 = sum(1 for r in ok if all(r["dets"].get(c) for c in colours))
    extra = sum(max(0, r["n_dets"] - 3) for r in ok)
    # the camera does not move: how far apart the solved cameras put the table's corners
    spread = float("nan")
    if len(ok) > 1:
        cs = np.array([r["corners_px"] for r in ok])  # (n, 4, 2)
        spread = float(np.max(np.linalg.norm(cs - np.median(cs, axis=0), axis=2)))
    red = [r["dets"]["red"][0][:2] for r in ok if r["dets"].get("red")]
    red_spread = (
        float(np.max(np.linalg.norm(np.array(red) - np.median(np.array(red), axis=0), axis=1))) if red else float("nan")
    )
    head = [
        "frames",
        "calibrated",
        "rms px median (max)",
        "rms mm median (max)",
        "diamonds matched median",
        "corner spread px (max vs median camera)",
        "white found",
        "yellow found",
        "red found",
        "all three",
        "detections beyond 3",
        "red (at rest) spread mm",
        "s per frame (calibration)",
    ]
    rms = [r["rms_px"] for r in ok]
    rmm = [r["rms_mm"] for r in ok]
    body = [
        [
            len(rows),
            len(ok),
            f"{_f(np.median(rms), 2)} ({_f(max(rms), 2)})" if rms else "-",
            f"{_f(np.median(rmm), 2)} ({_f(max(rmm), 2)})" if rmm else "-",
            _f(float(np.median([r["diamonds"] for r in ok])), 0) if ok else "-",
            _f(spread, 1),
            f"{found['white']}/{len(ok)}",
            f"{found['yellow']}/{len(ok)}",
            f"{found['red']}/{len(ok)}",
            f"{all3}/{len(ok)}",
            extra,
            _f(red_spread, 1),
            _f(float(np.median([r["s"] for r in rows])), 1),
        ]
    ]
    text = [md_table(head, body), ""]
    if errors:
        text += [
            "Calibration failures: "
            + "; ".join(
                f"{e} ({len(v)} frames: {', '.join(v[:6])}{'…' if len(v) > 6 else ''})" for e, v in errors.items()
            ),
            "",
        ]
    missing = [r["frame"] for r in ok if not all(r["dets"].get(c) for c in colours)]
    if missing:
        text += [
            "Frames missing a ball: "
            + ", ".join(
                f"{r['frame']} ({'/'.join(c for c in colours if not r['dets'].get(c))})"
                for r in ok
                if r["frame"] in missing
            ),
            "",
        ]
    text += [
        "Each frame calibrated on its own (carom match table); the carom detector (`--detector auto`: the "
        "classical one) run on the frame with its cloth model taken from the same frame, as the pipeline takes it "
        'from the first frame. No labels: a ball "found" is a detection labelled with its colour; the spreads '
        "are consistency checks (static camera, resting red)."
    ]
    clip_text, clip = carom_frames_as_clip(frames, work / "carom-broadcast-frames")
    text += ["", clip_text]
    summary = {
        "frames": len(rows),
        "calibrated": len(ok),
        "found": found,
        "all3": all3,
        "extra": extra,
        "corner_spread_px": spread,
        "red_spread_mm": red_spread,
        "errors": errors,
        "clip": clip,
    }
    return "\n".join(text), summary


def carom_frames_as_clip(frames: Sequence[Path], work: Path, fps: float = 30.0) -> tuple[str, dict]:
    """The consecutive frames written as one clip (``fps``, as the folder's README gives them) and
    run through ``analyze`` as a user runs a three-cushion clip: the camera solved from the pixels,
    the balls tracked, the events and the call. No labels: what it reports is what a person can
    check against the frames (which ball meets which cushion at which frame, which balls move, the
    resting ones' spread), and that the log is in time order."""
    import cv2

    from tabletrack.pipeline import AnalyzeOptions, analyze_video
    from tracking.events import BallBall, CushionHit

    work.mkdir(parents=True, exist_ok=True)
    video = work / "frames.mp4"
    first = cast("np.ndarray", cv2.imread(str(frames[0])))
    h, w = first.shape[:2]
    out = cv2.VideoWriter(str(video), cv2.VideoWriter.fourcc(*"mp4v"), fps, (w, h))
    for p in frames:
        out.write(cast("np.ndarray", cv2.imread(str(p))))
    out.release()
    t0 = time.perf_counter()
    try:
        res = analyze_video(
            video,
            AnalyzeOptions(
                game="three-cushion", table="carom", out_dir=work / "analysis", annotated_video=False, progress=False
            ),
        )
    except Exception as e:
        line = f"As a clip: FAILED: {_first_line(e)}"
        return line, {"error": _first_line(e)}
    s = time.perf_counter() - t0
    events = res.events
    in_order = in_time_order([e.t_s for e in events])
    tracks = {t.ball.value: t for t in res.tracks}
    moved, observed, spread = {}, {}, {}
    for name, t in tracks.items():
        xy = np.column_stack([t.x_mm, t.y_mm])
        moved[name] = float(np.sum(np.linalg.norm(np.diff(xy, axis=0), axis=1))) if len(xy) > 1 else 0.0
        spread[name] = float(np.max(np.linalg.norm(xy - np.median(xy, axis=0), axis=1))) if len(xy) else float("nan")
        observed[name] = int(np.sum(t.observed))

    def at(frame: int) -> str:
        return frames[min(max(frame, 0), len(frames) - 1)].stem

    cushions = [f"{e.ball.value} {e.cushion.value} @ {at(e.frame)}" for e in events if isinstance(e, CushionHit)]
    contacts = [f"{'-'.join(b.value for b in e.balls)} @ {at(e.frame)}" for e in events if isinstance(e, BallBall)]
    calls = [
        (c.summary or ("point" if c.points else "miss")) + (" (review)" if c.needs_review else "") for c in res.calls
    ]
    head = [
        "frames",
        "calib mm",
        "seen on frames, per ball (still ones skipped)",
        "path mm per ball",
        "spread mm per ball",
    ]
    head += ["cushions (ball cushion @ frame)", "ball-ball contacts", "shots", "calls", "log in time order", "s"]
    names = sorted(tracks)
    row = [
        len(frames),
        _f(res.camera.reprojection_error_mm, 2),
        ", ".join(f"{n} {observed[n]}" for n in names),
        ", ".join(f"{n} {moved[n]:.0f}" for n in names),
        ", ".join(f"{n} {spread[n]:.1f}" for n in names),
        "; ".join(cushions) or "-",
        "; ".join(contacts) or "-",
        len(res.calls),
        "; ".join(calls) or "-",
        "yes" if in_order else "NO",
        f"{s:.1f}",
    ]
    text = "\n".join(
        [
            f"As a clip: the {len(frames)} frames written as one {fps:.0f} fps clip (mp4v) and run through "
            "`analyze` (three-cushion, the camera solved from the pixels, the classical detector with its cloth "
            "model from the first frame and refreshed while the balls rest):",
            "",
            md_table(head, [row]),
            "",
            "A path is the sum of the tracked steps (a resting ball's is its jitter); a clip that begins and ends "
            "with balls rolling is one shot whose call waits for review.",
            "",
        ]
    )
    summary = {
        "observed": observed,
        "path_mm": moved,
        "spread_mm": spread,
        "cushions": cushions,
        "contacts": contacts,
        "shots": len(res.calls),
        "calls": calls,
        "in_order": in_order,
        "s": s,
    }
    return text, summary


# ---------------------------------------------------------------------------------------------
# 5. billiard-pool-coco
# ---------------------------------------------------------------------------------------------


def section_coco(detector_eval: bool) -> tuple[str, dict]:
    if not (COCO / "test" / "_annotations.coco.json").is_file():
        return f"absent: {COCO / 'test'}", {}
    sys.path.insert(0, str(REPO / "bench"))
    from pool_calibration import measure

    t0 = time.perf_counter()
    out = measure("test", "pool")
    s = out["summary"]
    text = [
        "Calibration (bench/pool_calibration.py, pool 9 ft spec, test split):",
        "",
        md_table(
            [
                "images",
                "calibrated",
                "all balls on the table",
                "diamonds >= 12 of 18",
                "good (both)",
                "balls on the table",
                "rms px median",
                "s per image",
            ],
            [
                [
                    s["images"],
                    s["calibrated"],
                    s["all_balls_on_table"],
                    s["diamonds_12_of_18"],
                    s["good"],
                    f"{100 * s['ball_fraction_on_table']:.1f}%",
                    _f(s["median_rms_px"], 2),
                    _f(s["s_per_image"], 2),
                ]
            ],
        ),
        "",
    ]
    errs: dict[str, int] = {}
    for r in out["rows"]:
        if "error" in r:
            errs[r["error"]] = errs.get(r["error"], 0) + 1
    if errs:
        text += [
            "Calibration failures: " + "; ".join(f"{k} ({v})" for k, v in sorted(errs.items(), key=lambda x: -x[1])),
            "",
        ]
    summary = {"calibration": s, "calibration_s": time.perf_counter() - t0}
    if detector_eval:
        from models.evaluate import evaluate_real

        t1 = time.perf_counter()
        ev = evaluate_real(COCO, "test", log=lambda *a: None)
        summary["detector_s"] = time.perf_counter() - t1
        if ev:
            summary["detector"] = ev
            text += [
                "Detector on the raw photos (`python -m models.evaluate --real ../shared/data/billiard-pool-coco`):",
                "",
                md_table(
                    ["images", "mAP50", "identity accuracy", "recall", "precision", "ms per frame"],
                    [
                        [
                            ev["images"],
                            _f(ev["mAP50"], 3),
                            _f(ev.get("identity_accuracy"), 4),
                            _f(ev.get("recall"), 4),
                            _f(ev.get("precision"), 4),
                            _f(ev.get("ms_per_frame_median"), 0),
                        ]
                    ],
                ),
                "",
            ]
    else:
        text += [
            "Detector figures left out (`--no-detector-eval`); measure them with "
            "`python -m models.evaluate --real ../shared/data/billiard-pool-coco`.",
            "",
        ]
    return "\n".join(text), summary


# ---------------------------------------------------------------------------------------------

SECTIONS = {
    "1": "Three-cushion trajectories (three-cushion-tracks, 60 shots of a real match)",
    "2": "Nine-ball broadcast clips (nine-ball-clips, 1920x1080, 25 fps)",
    "3": "Eight-ball clips (eight-ball-clips, 1024x576)",
    "4": "Carom broadcast frames (carom-broadcast-frames, 37 frames, no labels)",
    "5": "Real pool photos (billiard-pool-coco, test split)",
}


def run(
    sections: Sequence[str] = tuple(SECTIONS),
    detector_eval: bool = True,
    keep: Path | None = None,
    classifier: Path | None = None,
) -> tuple[str, dict]:
    """Run the sections; return the markdown body of the "Real footage" section and the figures.
    ``keep``: a folder to leave the analyses in (out dirs of each clip), else a temporary one.
    ``classifier``: the clips analysed with this identity classifier (ONNX) in place of the
    shipped one (a retrained one, e.g. with a clip left out of its training)."""
    import platform

    import cv2

    parts = [
        "## Real footage",
        "",
        f"Generated by `python bench/real.py` on {time.strftime('%Y-%m-%d')} ({platform.machine()}, "
        f"{platform.python_version()}, OpenCV {cv2.__version__}) from `../shared/data/real-dev/` and "
        "`../shared/data/billiard-pool-coco/` (not in the repository). Real data no renderer made: the "
        "figures are what the current code does on it, nothing is tuned to it.",
        "",
    ]
    if classifier is not None:
        parts += [
            f"Analysed with the identity classifier `{classifier}` in place of the shipped one: which clips it "
            "was trained on is not known here (no † marks); read a clip it never saw.",
            "",
        ]
        print(parts[-2], flush=True)
    figures: dict[str, Any] = {}
    timings = []
    with tempfile.TemporaryDirectory(prefix="real_bench_") as tmp:
        work = Path(keep) if keep else Path(tmp)
        for key in sections:
            title = SECTIONS[key]
            print(f"[{key}] {title}", flush=True)
            t0 = time.perf_counter()
            try:
                if key == "1":
                    text, fig = section_tracks()
                elif key == "2":
                    text, fig = section_nine(work, classifier)
                elif key == "3":
                    text, fig = section_eight(work, classifier)
                elif key == "4":
                    text, fig = section_carom_frames(work)
                else:
                    text, fig = section_coco(detector_eval)
            except Exception as e:  # a broken section is reported, the others still run
                import traceback

                traceback.print_exc()
                text, fig = f"FAILED: {_first_line(e)}", {"error": _first_line(e)}
            dt = time.perf_counter() - t0
            timings.append((title, dt))
            figures[key] = fig
            print(text, flush=True)
            print(f"[{key}] {dt:.0f} s\n", flush=True)
            parts += [f"### {title}", "", text, ""]
    parts += ["Run time per section: " + "; ".join(f"{t.split(' (')[0]} {dt:.0f} s" for t, dt in timings) + "."]
    return "\n".join(parts), figures


def write_section(out: Path, body: str) -> None:
    """:func:`sections.write_section` with this script's markers."""
    import sections  # bench/sections.py (this script's folder is on sys.path when it runs)

    sections.write_section(out, body, BEGIN, END)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sections", nargs="*", choices=list(SECTIONS), default=list(SECTIONS))
    ap.add_argument("--out", default=str(REPO / "BENCHMARKS.md"), help="write the section here ('-': only print)")
    ap.add_argument("--no-detector-eval", action="store_true", help="leave out models.evaluate on the real photos")
    ap.add_argument("--json", help="also write the figures here")
    ap.add_argument("--keep", type=Path, help="leave each clip's analysis (events, calls, tracks, calibration) here")
    ap.add_argument(
        "--classifier",
        type=Path,
        help="analyse the clips with this identity classifier (ONNX) in place of models/ball_classifier.onnx "
        "(e.g. one trained with a clip left out: models/MODEL_CARD.md)",
    )
    args = ap.parse_args(argv)
    if args.classifier is not None and not args.classifier.is_file():
        print(f"real.py: --classifier {args.classifier}: no such file; expected an ONNX classifier", file=sys.stderr)
        return 2
    body, figures = run(args.sections, not args.no_detector_eval, args.keep, args.classifier)
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=1, default=str) + "\n", encoding="utf-8")
    if args.out == "-":  # as bench/live.py: printed above, written nowhere (not a file named '-')
        return 0
    write_section(Path(args.out), body)
    print(f"written the real-footage section of {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
