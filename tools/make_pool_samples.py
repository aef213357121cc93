"""Render the pool and snooker sample clips (``sample_videos/pool/``) from the committed pooltool shots.

    nice -n 10 python tools/make_pool_samples.py                     # every clip of CLIPS
    nice -n 10 python tools/make_pool_samples.py jaws_720p30         # only some of them (the rest stay as they are)
    python tools/make_pool_samples.py --list
    python tools/make_pool_samples.py --index-only                   # rewrite the INDEX section

Each clip is one row of :data:`CLIPS`: the shot it draws (``sample_data/pool_shots/<shot>.npz``,
made by ``tools/make_pool_shots.py`` with pooltool; ``jump_off`` by ``tools/make_jump_shot.py`` with
:mod:`synth.physics.jump`, since pooltool has no airborne model), the game it is judged as, resolution, frame rate, a
broadcast camera over the table (near-vertical, two oblique), cloth, lamp layout, rails, noise,
shutter, a scoreboard, a hand and cue at the stroke, CRF and a seed. Everything random (camera
tilt and roll, the balls' starting orientations, textures, noise) derives from the seed, so a run
reproduces the frames.

Why the clips live in ``sample_videos/pool/`` and not beside the carom clips: the carom tests
(``tests/synth/render/test_render_samples.py``, ``tests/golden/test_golden_clips.py``,
``tests/calibration/test_sample_clips.py``) take every ``sample_videos/*.truth.json`` / ``*.mp4``
as a carom clip of ``tools/make_samples.py`` judged as three-cushion.

What differs from :func:`synth.render.clip.render_clip` (whose loop :func:`render_pool_clip`
follows): the shot is passed through :func:`synth.render.pockets.sink_into_pockets` and then
:func:`drop_into_pockets` so pocketed balls visibly drop out of sight (the first alone leaves these
shots' pocketed balls vanishing at the hole's edge in one frame: see :func:`drop_into_pockets`), and the balls start turned (``start_orientations``): ``render_clip``
starts every ball at the identity orientation, where a pool ball's two number circles face
sideways and a stripe shows only its white pole from above, so no number could be read.

Beside each ``<clip>.mp4`` this writes ``<clip>.truth.json`` (format ``tabletrack-clip-truth/1``
of :mod:`synth.render.truth`, with pool keys added: ``game``, ``pocketings`` [{ball, pocket, t,
frame}], ``first_contact`` {balls, t, frame}, ``referee`` (file name or null), ``call_on_truth``
(the rules engine's call of the truth events with that referee input)) and, where the clip starts
mid-rack or mid-frame, ``<clip>.referee.json`` with the ``start`` of the game's engine
(``rules/nine_ball/README.md``, ``rules/snooker/README.md``). The pool/snooker section of
``sample_videos/INDEX.md`` (after the marker line) is rewritten from the truth files; the carom
section above it is left as it is.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
OUT_DIR = REPO / "sample_videos" / "pool"
INDEX = REPO / "sample_videos" / "INDEX.md"
INDEX_MARKER = "<!-- pool-snooker clips: written by tools/make_pool_samples.py -->"
SHOTS_DIR = REPO / "sample_data" / "pool_shots"
BUDGET_BYTES = 6 * 1024 * 1024
MAX_CLIP_S = 10.0


@dataclass(frozen=True)
class PoolClipRow:
    """One clip: what it draws and how it looks (see the module docstring)."""

    name: str
    shot: str
    game: str  # rules.core.games name: nine-ball, seven-ball, snooker
    size: tuple[int, int]
    fps: float
    seed: int
    why: str
    mid_game: bool = True  # a referee.json gives the start (else a new rack/frame: the break)
    height_mm: float = 3500.0
    fill: float = 0.86
    k1: float = -0.04
    k2: float = 0.0
    off_axis_deg: float = 0.0
    jitter_deg: float = 1.0
    roll_deg: float = 0.6
    cloth: str = "tournament_blue"
    lamps: str = "row3"  # synth.render.still.LAMP_LAYOUTS
    lamp_height_mm: float = 1000.0
    lamp_power: float = 1.0
    rail_bgr: tuple[float, float, float] = (34.0, 62.0, 112.0)
    cue_marking: str = "none"
    noise_sigma: float = 2.0
    shutter_fraction: float = 0.5
    crf: int = 23
    scoreboard: str | None = None  # a frame corner
    hand: bool = False  # the bridge hand and cue over the cue ball until just after the stroke
    hand_offset_mm: float = 220.0
    lead_in_s: float = 0.3  # rest added before the shot's own 0.5 s of rest
    tail_s: float = 0.4


HD, FHD = (1280, 720), (1920, 1080)
_WALNUT, _DARK, _RED_WOOD = (34.0, 62.0, 112.0), (28.0, 44.0, 78.0), (40.0, 58.0, 120.0)

CLIPS: tuple[PoolClipRow, ...] = (
    PoolClipRow(
        "nine_break_720p30",
        "nine_break",
        "nine-ball",
        HD,
        30,
        201,
        "a nine-ball break of a full rack, the 8 into a side pocket; bridge hand and cue at the stroke",
        mid_game=False,
        height_mm=3600,
        k1=-0.05,
        cloth="tournament_blue",
        lamps="row3",
        rail_bgr=_DARK,
        cue_marking="measles",
        scoreboard="bottom_left",
        hand=True,
        hand_offset_mm=240,
        lead_in_s=0.5,
        tail_s=0.3,
        crf=21,
    ),
    PoolClipRow(
        "pot_oblique_720p30",
        "pot",
        "nine-ball",
        HD,
        30,
        202,
        "a clean pot of the 3 into the side pocket, seen by a camera 12 degrees off the vertical",
        height_mm=3800,
        fill=0.82,
        k1=-0.03,
        off_axis_deg=12.0,
        cloth="blue",
        lamps="box8",
        rail_bgr=_WALNUT,
        noise_sigma=2.5,
        crf=21,
    ),
    PoolClipRow(
        "scratch_hand_720p30",
        "scratch",
        "seven-ball",
        HD,
        30,
        203,
        "the cue ball follows the 2 into the foot-left pocket (a scratch); hand and cue at the stroke; "
        "judged as seven-ball: the rack has no 9",
        height_mm=3400,
        k1=-0.06,
        cloth="green",
        lamps="row4",
        lamp_height_mm=1100,
        rail_bgr=_DARK,
        scoreboard="top_right",
        hand=True,
        hand_offset_mm=200,
        lead_in_s=0.5,
        tail_s=0.25,
        crf=20,
    ),
    PoolClipRow(
        "combination_1080p60",
        "combination",
        "nine-ball",
        FHD,
        60,
        204,
        "a combination: the cue ball hits the 1, the 1 sends the 5 into the side pocket",
        height_mm=3500,
        fill=0.87,
        k1=-0.04,
        cloth="tournament_blue",
        lamps="box8",
        lamp_power=1.2,
        rail_bgr=_DARK,
        cue_marking="dots6",
        shutter_fraction=0.4,
        scoreboard="bottom_right",
        crf=21,
    ),
    PoolClipRow(
        "jaws_720p30",
        "jaws",
        "nine-ball",
        HD,
        30,
        205,
        "the 6 rattles in the jaws of the foot-right pocket and stays out",
        height_mm=3300,
        k1=-0.07,
        cloth="blue",
        lamps="row3",
        lamp_height_mm=900,
        rail_bgr=_WALNUT,
        noise_sigma=1.5,
        crf=19,
    ),
    PoolClipRow(
        "snooker_break_hand_720p30",
        "snooker_break",
        "snooker",
        HD,
        30,
        206,
        "a snooker break-off from the D: a thin contact on the reds, nothing potted; hand and cue at the stroke",
        mid_game=False,
        height_mm=4300,
        fill=0.88,
        k1=-0.04,
        cloth="green",
        lamps="canopy",
        lamp_height_mm=1100,
        lamp_power=1.1,
        rail_bgr=_DARK,
        scoreboard="bottom_left",
        hand=True,
        hand_offset_mm=250,
        lead_in_s=0.5,
        tail_s=0.3,
        crf=20,
    ),
    PoolClipRow(
        "snooker_pot_720p30",
        "snooker_pot",
        "snooker",
        HD,
        30,
        207,
        "a red potted into the foot-right pocket, the cue ball running on off the pink; six reds left",
        height_mm=4500,
        fill=0.87,
        k1=-0.05,
        cloth="green",
        lamps="canopy",
        rail_bgr=_RED_WOOD,
        noise_sigma=2.5,
        shutter_fraction=0.6,
        scoreboard="top_left",
        crf=20,
    ),
    PoolClipRow(
        "jump_off_720p30",
        "jump_off",
        "nine-ball",
        HD,
        30,
        208,
        "the cue ball is jumped into the 4 near the foot cushion; the 4 is thrown up, touches the cushion and "
        "flies off the table over the foot rail (analytic shot of synth/physics/jump.py: pooltool has no "
        "airborne model); seen 10 degrees off the vertical",
        height_mm=3500,
        fill=0.84,
        k1=-0.04,
        off_axis_deg=10.0,
        cloth="green",
        lamps="box8",
        rail_bgr=_WALNUT,
        scoreboard="bottom_right",
        crf=21,
    ),
)

_PLAYERS = {"nine-ball": ("ANA", "BEA"), "seven-ball": ("ANA", "BEA"), "snooker": ("HUGO", "SAUL")}


# -- the balls' starting orientations ------------------------------------------------------------


def start_orientations(balls, rng, number_within_deg: float = 55.0):
    """(B, 3, 3) body-to-world rotations for the balls at rest. A numbered pool ball's number axis
    (body +x or -x, :mod:`synth.render.ballset`) points within ``number_within_deg`` of straight
    up (uniform over that cap), spun at random about it, so its number shows to an overhead camera
    at some tilt, as on a racked or spotted set seen on television; every other ball is uniform
    over SO(3) (the cue ball's marks, snooker balls)."""
    import numpy as np

    from synth.render.balls import random_rotations

    out = random_rotations(len(balls), rng)
    cmin = math.cos(math.radians(number_within_deg))
    for j, b in enumerate(balls):
        if not b.value.isdigit():
            continue
        cz = rng.uniform(cmin, 1.0)
        az = rng.uniform(0.0, 2.0 * math.pi)
        s = math.sqrt(max(0.0, 1.0 - cz * cz))
        x = np.array([s * math.cos(az), s * math.sin(az), cz]) * (1.0 if rng.random() < 0.5 else -1.0)
        a = rng.standard_normal(3)
        y = a - (a @ x) * x
        y /= np.linalg.norm(y)
        out[j] = np.column_stack([x, y, np.cross(x, y)])
    return out


# -- pocketed balls drop ------------------------------------------------------------------------


def drop_into_pockets(shot, table, min_speed_mm_s: float = 300.0):
    """The shot with every pocketed ball (its ``Pocketed`` truth events) dropping into its pocket's
    hole, visibly. pooltool marks a ball off the table (``on_table`` False, parked below the cloth)
    at its pocket event, when the centre enters pooltool's pocket circle; on these shots that is
    before (pool: 0.5-2 mm before) or a few ms after the centre comes over the renderer's hole, so
    the ball would vanish from the cloth in one frame (:func:`synth.render.pockets.sink_into_pockets`
    only acts on balls still on the table over the hole). Here, from the first sample over the hole
    (or the pocket event if earlier), the ball runs at its speed (at least ``min_speed_mm_s``)
    straight to the hole's centre and stops there (the pocket's back and net), falls freely once its
    centre is over the hole, and leaves the table (``on_table`` False) when its centre is a radius
    below the cloth (its top at the cloth: out of sight), about 0.1 s later. Events are unchanged."""
    from dataclasses import replace

    import numpy as np

    from synth.render.pockets import G_MM_S2
    from tracking.events import Pocketed

    xy, z, on = shot.xy_mm.copy(), shot.z_mm.copy(), shot.on_table.copy()
    t, R = shot.t_s, table.ball_radius_mm
    pockets = {p.name: p for p in table.pockets}
    for e in shot.events:
        if not isinstance(e, Pocketed):
            continue
        j = shot.balls.index(e.ball)
        p = pockets[e.pocket.value]
        c, hr = np.asarray(p.hole_centre_mm, np.float64), float(p.hole_radius_mm)
        gone = np.nonzero(~on[:, j])[0]
        k_off = int(gone[0]) if len(gone) else len(t)
        inside = np.nonzero(np.hypot(*(xy[:k_off, j] - c).T) <= hr)[0]
        k = max(int(inside[0]) if len(inside) else k_off, 1)
        i0 = max(k - 11, 0)
        v = (xy[k - 1, j] - xy[i0, j]) / max(t[k - 1] - t[i0], 1e-9)
        speed = max(float(np.hypot(*v)), min_speed_mm_s)
        p0 = xy[k - 1, j]
        D = float(np.hypot(*(c - p0)))
        u = (c - p0) / D if D > 1e-9 else np.zeros(2)
        dt = t[k:] - t[k - 1]
        xy[k:, j] = p0 + u * np.minimum(speed * dt, D)[:, None]
        t_edge = max(D - hr, 0.0) / speed
        z[k:, j] = R - 0.5 * G_MM_S2 * np.maximum(dt - t_edge, 0.0) ** 2
        on[k:, j] = z[k:, j] > -R
    return replace(shot, xy_mm=xy, z_mm=z, on_table=on)


# -- rendering ------------------------------------------------------------------------------------


def render_pool_clip(
    shot,
    table,
    camera,
    fps: float,
    out_mp4: Path,
    style,
    occlusions,
    seed: int,
    crf: int,
    lead_in_s: float,
    duration_s: float,
    name: str,
    shot_name: str,
    start_orient,
):
    """:func:`synth.render.clip.render_clip` with the balls starting at ``start_orient`` (B, 3, 3);
    returns the truth path and the :class:`~synth.render.clip.ClipStats`."""
    from synth.render.clip import render_clip

    return render_clip(
        shot,
        table,
        camera,
        fps,
        out_mp4,
        style=style,
        occlusions=occlusions,
        seed=seed,
        crf=crf,
        lead_in_s=lead_in_s,
        duration_s=duration_s,
        name=name,
        shot_name=shot_name,
        start_orient=start_orient,
        made_by="tools/make_pool_samples.py",
    )


# -- referee input and the pool keys of the truth -------------------------------------------------


def referee_start(row: PoolClipRow, shot, rng) -> dict | None:
    """The referee input of a clip that starts mid-rack (pool) or mid-frame (snooker): who is at
    the table, the balls on it (the shot start's), the match so far; None for a break."""
    from tracking.events import ShotStart

    if not row.mid_game:
        return None
    start = next(e for e in shot.events if isinstance(e, ShotStart))
    a, b = _PLAYERS[row.game]
    if row.game == "snooker":
        reds = sum(1 for x in start.positions if x.value.startswith("red"))
        gone = 15 - reds  # reds potted so far this frame, each with a colour at most
        total = int(rng.integers(gone, 8 * gone + 1))
        sa = int(rng.integers(0, total + 1))
        fa, fb = (int(v) for v in rng.integers(0, 3, size=2))
        return {
            "players": [a, b],
            "match": {"frames": 7, "break": "alternate"},
            "start": {
                "at_table": b,
                "breaker": a if (fa + fb) % 2 == 0 else b,
                "frame": fa + fb + 1,
                "frames_won": [fa, fb],
                "score": [sa, total - sa],
                "reds": reds,
                "ball_on": "red",
                "break": 0,
                "next_is_break": False,
            },
        }
    balls = sorted((x.value for x in start.positions if x.value.isdigit()), key=int)
    wa, wb = (int(v) for v in rng.integers(0, 5, size=2))
    return {
        "players": [a, b],
        "match": {"race_to": 9, "break": "alternate"},
        "start": {
            "at_table": b,
            "breaker": a if (wa + wb) % 2 == 0 else b,
            "rack": wa + wb + 1,
            "racks_won": {a: wa, b: wb},
            "next_is_break": False,
            "balls": balls,
        },
    }


def _pool_keys(truth_path: Path, row: PoolClipRow, referee: dict | None, extra_render: dict) -> dict:
    """Add the pool keys (module docstring) to the truth file; returns the call on the truth."""
    from rules import judge_events
    from rules.core.call import call_to_dict
    from tracking.eventlog import event_from_dict
    from tracking.events import BallBall, Pocketed, ShotStart

    d = json.loads(truth_path.read_text(encoding="utf-8"))
    events = [event_from_dict(e, truth_path.name) for e in d["events"]]
    cue = next(e.cue_ball for e in events if isinstance(e, ShotStart))
    first = next((e for e in events if isinstance(e, BallBall) and cue in e.balls), None)
    calls, _ = judge_events(events, row.game, referee)
    call = call_to_dict(calls[0])
    d["game"] = row.game
    d["pocketings"] = [
        {"ball": e.ball.value, "pocket": e.pocket.value, "t": e.t_s, "frame": e.frame}
        for e in events
        if isinstance(e, Pocketed)
    ]
    d["first_contact"] = (
        None if first is None else {"balls": [x.value for x in first.balls], "t": first.t_s, "frame": first.frame}
    )
    d["referee"] = None if referee is None else f"{row.name}.referee.json"
    d["call_on_truth"] = {
        k: call.get(k)
        for k in ("game", "player", "legal", "foul", "points", "turn_over", "game_over", "reason", "score")
    }
    d["render"].update(extra_render)
    truth_path.write_text(json.dumps(d, separators=(",", ":")) + "\n", encoding="utf-8")
    return d["call_on_truth"]


def render_row(row: PoolClipRow, out_dir: Path):
    import numpy as np

    from calibration.table import load_table
    from synth.physics.trajectory import SimShot
    from synth.render.cameras import broadcast_camera
    from synth.render.occluder import Occlusion
    from synth.render.pockets import sink_into_pockets
    from synth.render.still import lamp_layout
    from synth.render.style import ClothColour, RenderStyle, Scoreboard
    from tracking.events import ShotStart

    path = SHOTS_DIR / f"{row.shot}.npz"
    if not path.is_file():
        raise ValueError(
            f"clip {row.name}: expected the shot {path.relative_to(REPO)}, not found (python tools/make_pool_shots.py)"
        )
    raw = SimShot.load(path)
    table = load_table(raw.table)
    shot = drop_into_pockets(sink_into_pockets(raw, table), table)
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
        jitter_deg=row.jitter_deg,
        roll_deg=row.roll_deg,
        rng=rng,
    )
    referee = referee_start(row, shot, rng)
    sb = None
    if row.scoreboard is not None:
        a, b = _PLAYERS[row.game]
        st = (referee or {}).get("start", {})
        if row.game == "snooker":
            scores, inn = tuple(st.get("frames_won", (0, 0))), int(st.get("frame", 1))
        else:
            won = st.get("racks_won", {a: 0, b: 0})
            scores, inn = (won[a], won[b]), int(st.get("rack", 1))
        sb = Scoreboard(corner=row.scoreboard, players=(a, b), scores=scores, innings=inn, event_title=row.game.upper())
    style = RenderStyle(
        cloth=ClothColour.parse(row.cloth),
        rail_bgr=row.rail_bgr,
        cue_marking=row.cue_marking,
        lamps=lamp_layout(table, row.lamps, row.lamp_height_mm, row.lamp_power),
        noise_sigma=row.noise_sigma,
        shutter_fraction=row.shutter_fraction,
        scoreboard=sb,
    )
    start = next(e for e in shot.events if isinstance(e, ShotStart))
    occ = []
    if row.hand:
        end_s = row.lead_in_s + start.t_s + 0.35
        occ.append(Occlusion(start.cue_ball, 0, int(round(end_s * row.fps)), hand_offset_mm=row.hand_offset_mm))
    duration = min(row.lead_in_s + shot.duration_s + row.tail_s, MAX_CLIP_S)
    orient = start_orientations(shot.balls, rng)
    out = out_dir / f"{row.name}.mp4"
    t0 = time.perf_counter()
    truth, stats = render_pool_clip(
        shot,
        table,
        cam,
        row.fps,
        out,
        style,
        occ,
        row.seed,
        row.crf,
        row.lead_in_s,
        duration,
        row.name,
        row.shot,
        orient,
    )
    ref_path = out_dir / f"{row.name}.referee.json"
    if referee is not None:
        ref_path.write_text(json.dumps(referee, indent=2) + "\n", encoding="utf-8")
    elif ref_path.exists():
        ref_path.unlink()
    call = _pool_keys(
        truth,
        row,
        referee,
        {
            "lamps": row.lamps,
            "lamp_height_mm": row.lamp_height_mm,
            "lamp_power": row.lamp_power,
            "rail_bgr": list(row.rail_bgr),
            "cue_marking": row.cue_marking,
            # provenance as written in the committed data (the path before issue 9): reruns stay byte-identical
            "sink": "vision.render.pockets.sink_into_pockets + make_pool_samples.drop_into_pockets",
            "start_orientations": "make_pool_samples.start_orientations",
        },
    )
    return truth, stats, time.perf_counter() - t0, call


# -- the INDEX section ----------------------------------------------------------------------------


def index_section(out_dir: Path) -> str:
    from tracking.eventlog import event_from_dict
    from tracking.events import BallBall, CushionHit

    rows = []
    for r in CLIPS:
        p = out_dir / f"{r.name}.truth.json"
        if not p.is_file():
            continue
        d = json.loads(p.read_text(encoding="utf-8"))
        ev = [event_from_dict(e, p.name) for e in d["events"]]
        mp4 = out_dir / d["video"]
        kib = mp4.stat().st_size / 1024 if mp4.is_file() else float("nan")
        fc = d["first_contact"]
        pk = ", ".join(f"{x['ball']} {x['pocket']} @{x['t']:.2f}" for x in d["pocketings"]) or "-"
        c = d["call_on_truth"]
        call = (
            f"{'legal' if c['legal'] else 'foul ' + str(c['foul']).split('.')[-1].lower()}"
            f"{', turn over' if c['turn_over'] else ''}"
        )
        cam = d["camera"]
        rows.append(
            f"| [{r.name}](pool/{r.name}.mp4) | {r.shot} | {d['game']} | {d['table']} | {d['image_w_px']}x{d['image_h_px']} | "
            f"{d['fps']:g} | {d['frame_count'] / d['fps']:.2f} | {'-'.join(fc['balls']) if fc else '-'} | {pk} | "
            f"{sum(isinstance(e, BallBall) for e in ev)} | {sum(isinstance(e, CushionHit) for e in ev)} | {call} | "
            f"{r.off_axis_deg:.0f} | {cam['k1']:+.2f} | {r.cloth}, {r.lamps} | {'yes' if d['occlusions'] else ''} | "
            f"{'yes' if d['overlay_box_px'] else ''} | {'yes' if d['referee'] else ''} | {kib:.0f} | {r.why} |"
        )
    return (
        f"{INDEX_MARKER}\n\n"
        "## Pool and snooker clips (`sample_videos/pool/`)\n\n"
        "Rendered by `tools/make_pool_samples.py` from the pooltool shots in `sample_data/pool_shots/`\n"
        "(`jump_off`: the analytic airborne model of `synth/physics/jump.py`, pooltool having none; the 4 leaves the\n"
        "table over the rail, `off_table` in the truth)\n"
        "(pocketed balls drop into the hole: `sink_into_pockets`, then `drop_into_pockets` of the tool). They sit in\n"
        "`pool/` so that the "
        "carom tests, which take every clip here as three-cushion, do not read them. Truth format as above plus\n"
        "`game`, `pocketings` [{ball, pocket, t, frame}] (t: pooltool's pocket event, the centre inside the\n"
        "pocket circle; the ball then drops and leaves `frames` once it has fallen a diameter, ~0.1 s later),\n"
        "`first_contact` {balls, t, frame}, `referee` (the `<clip>.referee.json` with the rules engine's\n"
        "`start`, for clips that begin mid-rack or mid-frame) and `call_on_truth` (the engine's call of the\n"
        "truth events with that input). `bb` / `cush`: ball-ball and cushion events (jaw contacts count as\n"
        "the rail they end). `tilt`: the camera's angle off the vertical, degrees (plus a random <= 1 degree).\n\n"
        "| clip | shot | game | table | size | fps | s | first contact | pocketed (s) | bb | cush | call on truth "
        "| tilt | k1 | cloth, lamps | hand | scoreboard | referee | KiB | what it shows |\n"
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- "
        "| --- | --- | --- |\n" + "\n".join(rows) + "\n"
    )


def write_index(out_dir: Path, index: Path = INDEX) -> None:
    """Rewrite the part of ``index`` from :data:`INDEX_MARKER` on; what is above it stays."""
    text = index.read_text(encoding="utf-8") if index.is_file() else "# Sample clips\n"
    head = text.split(INDEX_MARKER)[0].rstrip("\n") + "\n\n"
    index.write_text(head + index_section(out_dir), encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("names", nargs="*", help="clips to make (default: all)")
    ap.add_argument("--out", type=Path, default=OUT_DIR, help="output folder")
    ap.add_argument("--list", action="store_true", help="list the clips and exit")
    ap.add_argument("--index-only", action="store_true", help="only rewrite the INDEX.md section")
    args = ap.parse_args(argv)
    sys.path.insert(0, str(REPO))
    if args.list:
        for r in CLIPS:
            print(f"{r.name:28s} {r.shot:14s} {r.game:10s} {r.size[0]}x{r.size[1]}@{r.fps:g}  {r.why}")
        return 0
    known = {r.name: r for r in CLIPS}
    unknown = [n for n in args.names if n not in known]
    if unknown:
        print(
            f"make_pool_samples: unknown clip {', '.join(unknown)}: expected one of {', '.join(known)}", file=sys.stderr
        )
        return 2
    args.out.mkdir(parents=True, exist_ok=True)
    if not args.index_only:
        for r in [known[n] for n in args.names] if args.names else CLIPS:
            try:
                truth, st, wall, call = render_row(r, args.out)
            except ValueError as e:
                print(f"make_pool_samples: {r.name}: {e}", file=sys.stderr)
                return 1
            mp4 = truth.with_name(r.name + ".mp4")
            print(
                f"{r.name:28s} {st.frames:4d} frames  scene {st.scene_s:5.1f} s  frame mean "
                f"{1000 * st.frame_mean_s:6.1f} ms  p95 {1000 * st.frame_p95_s:6.1f} ms  wall {wall:6.1f} s  "
                f"{mp4.stat().st_size / 1024:6.0f} KiB  call: {call['reason']}",
                flush=True,
            )
    if args.out.resolve() == OUT_DIR.resolve():
        write_index(args.out)
    total = sum(p.stat().st_size for p in args.out.iterdir() if p.is_file())
    print(f"total {total / 1024 / 1024:.2f} MiB in {args.out} (budget {BUDGET_BYTES / 1024 / 1024:.0f} MiB)")
    if total > BUDGET_BYTES:
        print(
            f"make_pool_samples: the pool/snooker clips take {total / 1024 / 1024:.2f} MiB, over the "
            f"{BUDGET_BYTES / 1024 / 1024:.0f} MiB budget",
            file=sys.stderr,
        )
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
