"""Regenerate the committed pool and snooker sample shots (``sample_data/pool_shots/*.npz``) with pooltool.

pooltool is a data-generation extra, not a dependency of the project: run this with the
simulation venv made by ``tools/setup_sim_env.sh``::

    PYTHONPATH=. .venv-sim/bin/python tools/make_pool_shots.py             # all scenarios
    PYTHONPATH=. .venv-sim/bin/python tools/make_pool_shots.py jaws pot

Each scenario draws layouts and strokes from a fixed seed and simulates until the outcome it is
named for happens (``tries`` in the index says how many draws that took); nothing is edited after
the simulation. A ball leaving the table (jumping off) cannot be made: pooltool 0.6 has no
airborne model, so balls never leave the cloth. ``INDEX.md`` is rewritten from the files.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tracking.events import BallBall, CushionHit, Pocketed  # noqa: E402
from tracking.ids import BallId  # noqa: E402

MAX_MOTION_S = 8.0


@dataclass(frozen=True)
class Scenario:
    name: str
    table: str
    seed: int
    max_tries: int
    description: str
    draw: Callable[[random.Random, Any], tuple[dict, Any, dict]]
    accept: Callable[[Any, dict], bool]


# ---------------------------------------------------------------- geometry helpers (our frame)


def _aim(frm, to) -> float:
    return math.degrees(math.atan2(to[1] - frm[1], to[0] - frm[0]))


def _ghost(obj, target, r) -> tuple[float, float]:
    d = math.dist(obj, target)
    ux, uy = (target[0] - obj[0]) / d, (target[1] - obj[1]) / d
    return (obj[0] - 2 * r * ux, obj[1] - 2 * r * uy)


def _mouth(sim, pocket: str) -> tuple[float, float]:
    """A point just inside the pocket's mouth on the cloth, toward the table centre."""
    c = sim.pocket_centres_mm()[pocket]
    L, W = sim.table.length_mm, sim.table.width_mm
    x = min(max(c[0], 0.0), L)
    y = min(max(c[1], 0.0), W)
    return (x, y)


def _first_contact(truth) -> tuple[BallId, ...] | None:
    for e in truth.events:
        if isinstance(e, BallBall) and BallId.CUE in e.balls:
            return e.balls
    return None


def _first_hit(truth) -> BallId | None:
    fc = _first_contact(truth)
    if fc is None:
        return None
    return fc[1] if fc[0] is BallId.CUE else fc[0]


def _pocketed(truth) -> dict[BallId, str]:
    return {e.ball: e.pocket.value for e in truth.events if isinstance(e, Pocketed)}


def _scatter(rng, sim, n, ids, keep_clear, clear_mm=140.0):
    """``n`` balls of ``ids`` at random places at least ``clear_mm`` from the segments in
    ``keep_clear`` and from each other."""
    L, W, r = sim.table.length_mm, sim.table.width_mm, sim.table.ball_radius_mm
    out: dict[BallId, tuple[float, float]] = {}

    def seg_dist(p: Sequence[float], a: Sequence[float], b: Sequence[float]) -> float:
        ax, ay, bx, by = *a, *b
        t = max(
            0.0,
            min(1.0, ((p[0] - ax) * (bx - ax) + (p[1] - ay) * (by - ay)) / max((bx - ax) ** 2 + (by - ay) ** 2, 1e-9)),
        )
        return math.dist(p, (ax + t * (bx - ax), ay + t * (by - ay)))

    for b in ids[:n]:
        for _ in range(500):
            p = (rng.uniform(3 * r, L - 3 * r), rng.uniform(3 * r, W - 3 * r))
            if all(seg_dist(p, a, c) > clear_mm for a, c in keep_clear) and all(
                math.dist(p, q) > 4 * r for q in out.values()
            ):
                out[b] = p
                break
    return out


# ---------------------------------------------------------------- scenarios


def _strike(v0, aim, a=0.0, b=0.0, theta=0.0):
    from synth.physics.pooltool_pool import Strike

    return Strike(v0_m_s=v0, aim_deg=aim, a=a, b=b, theta_deg=theta)


def draw_nine_break(rng, sim):
    from synth.physics.pool_racks import nine_ball_rack

    t = sim.table
    layout = nine_ball_rack(t.spots_mm["foot_spot"], t.ball_radius_mm, rng)
    cue = (rng.uniform(0.15, 0.24) * t.length_mm, t.width_mm / 2 + rng.uniform(-300, 300))
    layout = {BallId.CUE: cue, **layout}
    apex = layout[BallId.B1]
    strike = _strike(rng.uniform(7.0, 9.0), _aim(cue, apex) + rng.gauss(0, 0.15), b=rng.uniform(-0.1, 0.2))
    return layout, strike, {}


def accept_nine_break(truth, extra) -> bool:
    pk = _pocketed(truth)
    return (
        _first_hit(truth) is BallId.B1
        and BallId.CUE not in pk
        and BallId.B9 not in pk
        and any(b is not BallId.CUE for b in pk)
    )


def _pot_layout(rng, sim, obj_id, pocket, extra_ids, follow=None):
    t = sim.table
    L, W, r = t.length_mm, t.width_mm, t.ball_radius_mm
    mouth = _mouth(sim, pocket)
    obj = (rng.uniform(0.3, 0.7) * L, rng.uniform(0.25, 0.75) * W)
    ghost = _ghost(obj, mouth, r)
    # the cue ball behind the ghost, cut angle below ~35 degrees
    back = math.degrees(math.atan2(obj[1] - mouth[1], obj[0] - mouth[0])) + rng.uniform(-35, 35)
    dist = rng.uniform(300, 700)
    cue = (ghost[0] + dist * math.cos(math.radians(back)), ghost[1] + dist * math.sin(math.radians(back)))
    if not (2 * r < cue[0] < L - 2 * r and 2 * r < cue[1] < W - 2 * r):
        return None
    layout = {BallId.CUE: cue, obj_id: obj}
    layout.update(_scatter(rng, sim, len(extra_ids), extra_ids, [(cue, ghost), (obj, mouth)]))
    return layout, ghost, mouth


def draw_pot(rng, sim):
    pocket = rng.choice(["foot_left", "foot_right", "side_left", "side_right", "head_left", "head_right"])
    res = None
    while res is None:
        res = _pot_layout(rng, sim, BallId.B3, pocket, [BallId.B4, BallId.B6, BallId.B9])
    layout, ghost, _ = res
    strike = _strike(
        rng.uniform(1.5, 3.0), _aim(layout[BallId.CUE], ghost) + rng.gauss(0, 0.1), b=rng.uniform(-0.3, 0.3)
    )
    return layout, strike, {"called": {"ball": "3", "pocket": pocket}}


def accept_pot(truth, extra) -> bool:
    pk = _pocketed(truth)
    return _first_hit(truth) is BallId.B3 and pk == {BallId.B3: extra["called"]["pocket"]}


def draw_scratch(rng, sim):
    pocket = rng.choice(["foot_left", "foot_right", "head_left", "head_right"])
    res = None
    while res is None:
        res = _pot_layout(rng, sim, BallId.B2, pocket, [BallId.B5, BallId.B7])
    layout, ghost, _ = res
    strike = _strike(
        rng.uniform(2.0, 4.0), _aim(layout[BallId.CUE], ghost) + rng.gauss(0, 0.5), b=rng.uniform(0.3, 0.7)
    )
    return layout, strike, {}


def accept_scratch(truth, extra) -> bool:
    return _first_hit(truth) is BallId.B2 and BallId.CUE in _pocketed(truth)


def draw_combination(rng, sim):
    t = sim.table
    L, W, r = t.length_mm, t.width_mm, t.ball_radius_mm
    pocket = rng.choice(["foot_left", "foot_right", "side_left", "side_right"])
    mouth = _mouth(sim, pocket)
    # the 5 between 250 and 600 mm from the pocket, the 1 behind it, the cue ball behind the 1
    for _ in range(1000):
        d5 = rng.uniform(250, 600)
        ang = math.radians(rng.uniform(0, 360))
        b5 = (mouth[0] + d5 * math.cos(ang), mouth[1] + d5 * math.sin(ang))
        if not (3 * r < b5[0] < L - 3 * r and 3 * r < b5[1] < W - 3 * r):
            continue
        g5 = _ghost(b5, mouth, r)
        back = math.degrees(math.atan2(b5[1] - mouth[1], b5[0] - mouth[0])) + rng.uniform(-20, 20)
        d1 = rng.uniform(150, 400)
        b1 = (g5[0] + d1 * math.cos(math.radians(back)), g5[1] + d1 * math.sin(math.radians(back)))
        g1 = _ghost(b1, g5, r)
        back2 = math.degrees(math.atan2(b1[1] - g5[1], b1[0] - g5[0])) + rng.uniform(-20, 20)
        dc = rng.uniform(250, 600)
        cue = (g1[0] + dc * math.cos(math.radians(back2)), g1[1] + dc * math.sin(math.radians(back2)))
        pts = [b5, b1, cue]
        if all(3 * r < p[0] < L - 3 * r and 3 * r < p[1] < W - 3 * r for p in pts) and math.dist(b1, b5) > 3 * r:
            break
    layout = {BallId.CUE: cue, BallId.B1: b1, BallId.B5: b5}
    layout.update(_scatter(rng, sim, 2, [BallId.B7, BallId.B9], [(cue, g1), (b1, g5), (b5, mouth)]))
    strike = _strike(rng.uniform(2.0, 3.5), _aim(cue, g1) + rng.gauss(0, 0.1), b=rng.uniform(-0.2, 0.2))
    return layout, strike, {"called": {"ball": "5", "pocket": pocket}}


def accept_combination(truth, extra) -> bool:
    pk = _pocketed(truth)
    bb = [e for e in truth.events if isinstance(e, BallBall)]
    one_hits_five = any(set(e.balls) == {BallId.B1, BallId.B5} for e in bb)
    return (
        _first_hit(truth) is BallId.B1
        and one_hits_five
        and pk.get(BallId.B5) == extra["called"]["pocket"]
        and BallId.CUE not in pk
        and BallId.B1 not in pk
    )


def draw_jaws(rng, sim):
    t = sim.table
    pocket = rng.choice(["foot_left", "foot_right", "side_left", "side_right"])
    mouth = _mouth(sim, pocket)
    # aim the object ball off the pocket centre by up to ~ a ball's width so it meets a jaw
    r = t.ball_radius_mm
    res = None
    while res is None:
        res = _pot_layout(rng, sim, BallId.B6, pocket, [BallId.B8, BallId.B9])
    layout, _, _ = res
    obj = layout[BallId.B6]
    d = math.dist(obj, mouth)
    off = rng.uniform(0.6, 1.6) * r * rng.choice([-1, 1])
    nx, ny = -(mouth[1] - obj[1]) / d, (mouth[0] - obj[0]) / d
    target = (mouth[0] + off * nx, mouth[1] + off * ny)
    ghost = _ghost(obj, target, r)
    strike = _strike(rng.uniform(1.2, 3.0), _aim(layout[BallId.CUE], ghost), b=rng.uniform(-0.2, 0.2))
    return layout, strike, {"aimed_pocket": pocket}


def _jaw_hits(truth, ball):
    segs = {i: (s, nose) for i, s, nose in truth.segments}
    return [
        segs[i][0]
        for i, e in enumerate(truth.events)
        if isinstance(e, CushionHit) and e.ball is ball and i in segs and not segs[i][1]
    ]


def accept_jaws(truth, extra) -> bool:
    return (
        _first_hit(truth) is BallId.B6
        and BallId.B6 not in _pocketed(truth)
        and len(_jaw_hits(truth, BallId.B6)) >= 2
        and BallId.CUE not in _pocketed(truth)
    )


def draw_snooker_break(rng, sim):
    from synth.physics.pool_racks import snooker_layout

    t = sim.table
    layout = snooker_layout(t.spots_mm, t.ball_radius_mm, rng)
    bx, d = t.spots_mm["baulk_line"][0], t.spots_mm["d_radius"][0]
    brown = t.spots_mm["brown"]
    # cue ball in the D (behind the baulk line, within d of the brown spot), between the brown and the yellow
    u = rng.uniform(0.35, 0.85)
    cue = (bx - rng.uniform(0.05, 0.5) * math.sqrt(1 - u * u) * d, brown[1] - u * d)
    layout = {BallId.CUE: cue, **layout}
    # a thin contact on the outer red of the back... the right-hand end red of the second row
    reds = [b for b in layout if b.value.startswith("red_")]
    right_reds = sorted(reds, key=lambda b: layout[b][1])[:3]
    target = min(right_reds, key=lambda b: layout[b][0])
    tx, ty = layout[target]
    r = t.ball_radius_mm
    aim_pt = (tx, ty - 2 * r * rng.uniform(0.75, 0.98))
    strike = _strike(rng.uniform(4.0, 6.0), _aim(cue, aim_pt), a=rng.uniform(-0.4, 0.0), b=rng.uniform(0.0, 0.3))
    return layout, strike, {}


def accept_snooker_break(truth, extra) -> bool:
    fh = _first_hit(truth)
    pk = _pocketed(truth)
    end = truth.final_positions.get(BallId.CUE)
    return fh is not None and fh.value.startswith("red_") and not pk and end is not None and end[0] < 900.0


def draw_snooker_pot(rng, sim):
    t = sim.table
    pocket = rng.choice(["foot_left", "foot_right", "side_left", "side_right", "head_left", "head_right"])
    res = None
    while res is None:
        res = _pot_layout(rng, sim, BallId.RED_1, pocket, [])
    layout, ghost, _ = res
    for c in (BallId.YELLOW, BallId.GREEN, BallId.BROWN, BallId.BLUE, BallId.PINK, BallId.BLACK):
        layout[c] = t.spots_mm[c.value]
    reds = [BallId.parse(f"red_{i}") for i in range(2, 7)]
    extra = _scatter(
        rng, sim, len(reds), reds, [(layout[BallId.CUE], ghost), (layout[BallId.RED_1], _mouth(sim, pocket))]
    )
    layout.update(extra)
    r = t.ball_radius_mm
    if any(math.dist(layout[a], layout[b]) < 2.2 * r for a in layout for b in layout if a != b):
        return draw_snooker_pot(rng, sim)
    strike = _strike(
        rng.uniform(2.0, 3.5), _aim(layout[BallId.CUE], ghost) + rng.gauss(0, 0.1), b=rng.uniform(0.1, 0.6)
    )
    return layout, strike, {"called": {"ball": "red_1", "pocket": pocket}}


def accept_snooker_pot(truth, extra) -> bool:
    pk = _pocketed(truth)
    if _first_hit(truth) is not BallId.RED_1 or pk != {BallId.RED_1: extra["called"]["pocket"]}:
        return False
    # the cue ball runs on: at least 400 mm from its position at the contact to its rest
    contact = next(e for e in truth.events if isinstance(e, BallBall) and BallId.CUE in e.balls)
    end = truth.final_positions[BallId.CUE]
    return math.dist(contact.pos_mm, end) > 400.0


SCENARIOS = [
    Scenario(
        "nine_break",
        "pool_9ft",
        901,
        300,
        "nine-ball break of a full diamond rack (1 at the apex on the foot spot, 9 in the centre); cue ball behind the head string; the 1 first, at least one object ball pocketed, neither the 9 nor the cue ball",
        draw_nine_break,
        accept_nine_break,
    ),
    Scenario(
        "pot",
        "pool_9ft",
        902,
        300,
        "a clean pot of the called 3 into the called pocket, three other balls on the table",
        draw_pot,
        accept_pot,
    ),
    Scenario(
        "scratch",
        "pool_9ft",
        903,
        400,
        "the cue ball hits the 2 and follows into a pocket (a scratch)",
        draw_scratch,
        accept_scratch,
    ),
    Scenario(
        "combination",
        "pool_9ft",
        904,
        600,
        "combination: the cue ball hits the 1 (lowest), the 1 pockets the 5 in the called pocket",
        draw_combination,
        accept_combination,
    ),
    Scenario(
        "jaws",
        "pool_9ft",
        905,
        1500,
        "the 6 rattles between the jaws of a pocket (two or more jaw contacts) and stays out",
        draw_jaws,
        accept_jaws,
    ),
    Scenario(
        "snooker_break",
        "snooker",
        906,
        400,
        "snooker break-off from the D: a thin contact on the reds, nothing potted, the cue ball back in baulk",
        draw_snooker_break,
        accept_snooker_break,
    ),
    Scenario(
        "snooker_pot",
        "snooker",
        907,
        400,
        "a red potted into the called pocket, the cue ball running on at least 400 mm; colours on their spots",
        draw_snooker_pot,
        accept_snooker_pot,
    ),
]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("names", nargs="*", help="scenarios to make (default: all)")
    ap.add_argument("--out", type=Path, default=REPO / "sample_data" / "pool_shots")
    args = ap.parse_args(argv)
    try:
        from synth.physics.pooltool_pool import PocketSimulator, pocket_table, stroke_clip
    except ImportError as e:  # pragma: no cover
        print(f"make_pool_shots: {e}", file=sys.stderr)
        return 2
    known = {s.name: s for s in SCENARIOS}
    bad = [n for n in args.names if n not in known]
    if bad:
        print(f"make_pool_shots: unknown scenario {bad[0]!r}: expected one of {', '.join(known)}", file=sys.stderr)
        return 2
    chosen = [known[n] for n in args.names] if args.names else SCENARIOS
    try:
        sims = {name: PocketSimulator(pocket_table(name)) for name in {s.table for s in chosen}}
    except ImportError as e:
        print(f"make_pool_shots: pooltool is not importable here ({e}); run with .venv-sim/bin/python", file=sys.stderr)
        return 2
    args.out.mkdir(parents=True, exist_ok=True)
    failed = 0
    for sc in chosen:
        sim = sims[sc.table]
        rng = random.Random(sc.seed)
        t0 = time.perf_counter()
        for k in range(1, sc.max_tries + 1):  # noqa: B007 (k, the tries taken, is read after the loop)
            layout, strike, extra = sc.draw(rng, sim)
            try:
                system, truth = sim.simulate(layout, strike)
            except ValueError:
                continue
            if truth.rest_s <= MAX_MOTION_S and sc.accept(truth, extra):
                break
        else:
            print(f"make_pool_shots: {sc.name}: no draw in {sc.max_tries} tries gave the outcome", file=sys.stderr)
            failed += 1
            continue
        meta = {
            "name": sc.name,
            "description": sc.description,
            "seed": sc.seed,
            "tries": k,
            "strike": strike.to_meta(),
            "generator": "tools/make_pool_shots.py",
            **extra,
        }
        shot = stroke_clip(sim, system, truth, meta)
        path = args.out / f"{sc.name}.npz"
        shot.save(path)
        pk = ", ".join(f"{b.value}->{p}" for b, p in _pocketed(truth).items()) or "-"
        print(
            f"{sc.name:15s} tries {k:4d}  motion {truth.rest_s:5.2f} s  {time.perf_counter() - t0:5.1f} s  "
            f"{path.stat().st_size // 1024:4d} KB  first {(_first_hit(truth) or BallId.CUE).value}  pocketed {pk}",
            flush=True,
        )
    write_index(args.out)
    return 1 if failed else 0


def write_index(folder: Path) -> None:
    rows = [
        "# Synthetic pool and snooker shots",
        "",
        "Made by `tools/make_pool_shots.py` with pooltool 0.6.0 (`synth/physics/pooltool_pool.py`); load with",
        "`synth.physics.trajectory.SimShot.load(path)`. 1 kHz exact paths, truth events in `events`",
        "(`frame` 0: recompute at the video's fps). Tables: our sizes (pool 9 ft 2540 x 1270 mm, 57.15 mm",
        "balls; snooker 3569 x 1778 mm, 52.5 mm balls) with pooltool's pocket and jaw geometry.",
        "",
        "No shot of a ball jumping off the table: pooltool 0.6 has no airborne model (balls never leave",
        "the cloth), so it cannot be simulated and is not faked.",
        "",
        *INDEX_HEADER,
    ]
    rows += [index_row(p) for p in sorted(folder.glob("*.npz"))]
    (folder / "INDEX.md").write_text("\n".join(rows) + "\n", encoding="utf-8")


#: The column heads of INDEX.md's table (tools/make_jump_shot.py adds its row under them too).
INDEX_HEADER = (
    "| name | table | clip s | motion s | balls | first contact | pocketed | cushion contacts (jaw) | tries | description |",
    "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
)


def index_row(path: Path) -> str:
    """The INDEX.md row of one saved shot (columns :data:`INDEX_HEADER`)."""
    from synth.physics.trajectory import SimShot

    s = SimShot.load(path)
    m = s.meta
    pk = ", ".join(f"{e.ball.value} {e.pocket.value}" for e in s.events if isinstance(e, Pocketed)) or "-"
    first = next((f"{e.balls[0].value}-{e.balls[1].value}" for e in s.events if isinstance(e, BallBall)), "-")
    n_c = sum(isinstance(e, CushionHit) for e in s.events)
    n_jaw = sum(1 for c in m.get("cushion_segments", []) if not c["nose"])
    return (
        f"| {path.stem} | {s.table} | {s.duration_s:.2f} | {m['rest_t_s'] - m['stroke_t_s']:.2f} | {len(s.balls)} | "
        f"{first} | {pk} | {n_c} ({n_jaw}) | {m.get('tries', '-')} | {m.get('description', '')} |"
    )


if __name__ == "__main__":
    raise SystemExit(main())
