"""A shot already under way when the recording begins (a clip cut in mid-shot): the shot start
names the balls that were moving on the first frame (``ShotStart.under_way``), so that the rules
can say that the stroke, and whatever came before the first frame, was not seen (issue 13 item 5;
the review itself: tests/rules/test_under_way.py). A ball at rest on the first frames, a ball first
seen later, and a sparse recorder that opens with the stroke are not under way."""

from __future__ import annotations

import numpy as np
import pytest
from sparse_recorder import Path2D, record, struck_from_rest

from calibration.table import load_table
from tracking.eventlog import EventLogError, event_from_dict, event_to_dict
from tracking.events import ShotStart
from tracking.ids import BallId
from tracking.infer import InferenceConfig, infer_events
from tracking.sampling import Sampling
from tracking.trajectory import Trajectory

TABLE = load_table("carom")
FPS = 25.0
W, R, Y = BallId.WHITE, BallId.RED, BallId.YELLOW


def _video(
    paths: dict[BallId, Path2D], t_end: float, seen_from: dict[BallId, float] | None = None
) -> dict[BallId, Trajectory]:
    """Every frame of ``paths`` at 25 fps; a ball of ``seen_from`` only from that time on."""
    t_all = np.arange(0.0, t_end, 1.0 / FPS)
    out = {}
    for b, p in paths.items():
        t = t_all[t_all >= (seen_from or {}).get(b, 0.0) - 1e-9]
        xy = np.array([p.at(float(x)) for x in t])
        n = len(t)
        out[b] = Trajectory(b, t, np.rint(t * FPS).astype(int), xy[:, 0], xy[:, 1], np.ones(n, bool), np.ones(n))
    return out


def _start(trajs: dict[BallId, Trajectory], cfg: InferenceConfig | None = None) -> ShotStart:
    events = infer_events(trajs, TABLE, cfg or InferenceConfig(sampling=Sampling.FRAMES))
    starts = [e for e in events if isinstance(e, ShotStart)]
    assert starts, "no shot found"
    return starts[0]


RESTING = {R: Path2D(((0.0, 2000.0, 300.0),)), Y: Path2D(((0.0, 2300.0, 1100.0),))}

CASES = [
    pytest.param(
        {W: Path2D(((0.0, 400.0, 700.0), (2.0, 1800.0, 700.0))), **RESTING},
        None,
        (W,),
        id="the white rolling on the first frame: under way",
    ),
    pytest.param(
        {W: Path2D(((0.0, 400.0, 700.0), (1.0, 400.0, 700.0), (3.0, 1800.0, 700.0))), **RESTING},
        None,
        (),
        id="the white at rest for a second, then struck: the stroke is seen",
    ),
    pytest.param(
        {
            W: Path2D(((0.0, 400.0, 700.0), (2.0, 1800.0, 700.0))),
            R: Path2D(((0.0, 2000.0, 300.0), (0.12, 2000.0, 300.0), (1.0, 2500.0, 600.0))),
            Y: RESTING[Y],
        },
        None,
        (W,),
        id="the red at rest on three frames, then moving: not under way",
    ),
    pytest.param(
        {
            W: Path2D(((0.0, 400.0, 700.0), (2.0, 1800.0, 700.0))),
            R: Path2D(((0.0, 2000.0, 300.0), (0.13, 2000.0, 300.0), (1.0, 2500.0, 600.0))),
            Y: RESTING[Y],
        },
        {R: 0.08},
        (W,),
        id="the red first seen on the third frame at rest, struck after it: not under way (real dev Clip12's rack)",
    ),
    pytest.param(
        {
            W: Path2D(((0.0, 400.0, 700.0), (2.0, 1800.0, 700.0))),
            R: Path2D(
                (
                    (0.0, 2000.0, 300.0),
                    (0.04, 2000.0, 300.0),
                    (0.08, 2005.0, 300.0),
                    (0.16, 2005.0, 300.0),
                    (1.0, 2500.0, 600.0),
                )
            ),
            Y: RESTING[Y],
        },
        None,
        (W,),
        id="the red at one centre on two frames, 5 mm off on the third, struck later: not under way (real dev Clip12's 6)",
    ),
    pytest.param(
        {W: Path2D(((0.0, 400.0, 700.0), (2.0, 1800.0, 700.0))), **RESTING},
        {W: 0.5},
        (),
        id="the white first seen moving half a second in (hidden before): not under way",
    ),
]


@pytest.mark.parametrize("paths,seen_from,under_way", CASES)
def test_under_way_names_the_balls_moving_when_the_recording_began(paths, seen_from, under_way) -> None:
    start = _start(_video(paths, 4.0, seen_from))
    assert start.under_way == under_way
    # each where it was first seen: the first frame's layout (the rack test, rules/core/opening.py)
    assert set(start.under_way_at) == set(under_way)
    for b in under_way:
        assert start.under_way_at[b] == pytest.approx(paths[b].at(0.0), abs=5.0)


STRUCK_SOON = Path2D(((0.0, 2000.0, 300.0), (0.14, 2000.0, 300.0), (1.0, 2500.0, 600.0)))


@pytest.mark.parametrize(
    "seen_from, in_layout, why",
    [
        (0.0, True, "seen at rest from the first frame, struck on the fourth"),
        (0.08, True, "first seen on the third frame at rest (real dev Clip12's 9, amid the rack)"),
        (0.5, False, "first seen half a second in: where it stood at the opening is not known"),
    ],
)
def test_a_ball_seen_at_rest_when_the_data_open_under_way_is_in_the_opening_layout(
    seen_from: float, in_layout: bool, why: str
) -> None:
    # the white under way on the first frame (the stroke before the recording): the red, struck
    # before a rest run was seen, stood where it was first seen (the rack of a break, 000 2.2)
    paths = {W: Path2D(((0.0, 400.0, 700.0), (2.0, 1800.0, 700.0))), R: STRUCK_SOON, Y: RESTING[Y]}
    start = _start(_video(paths, 4.0, {R: seen_from}))
    assert start.under_way == (W,)
    assert (R in start.positions) is in_layout, why
    if in_layout:
        assert start.positions[R] == pytest.approx((2000.0, 300.0))


def test_a_sparse_recorder_that_opens_with_the_stroke_is_not_under_way() -> None:
    # its first report of the struck ball is where it was struck (003 art. 2: the cue ball known)
    paths, _ = struck_from_rest(0.3)
    start = _start(record(paths, 3.0), InferenceConfig())
    assert start.cue_ball is W and start.under_way == ()


def test_under_way_is_kept_by_the_event_log() -> None:
    start = ShotStart(
        0.0,
        0,
        1,
        0.3,
        BallId.CUE,
        {BallId.B1: (500.0, 600.0)},
        under_way=(BallId.B2, BallId.CUE),
        under_way_at={BallId.B2: (700.0, 610.0), BallId.CUE: (1900.0, 1100.0)},
    )
    d = event_to_dict(start)
    assert d["under_way"] == ["2", "cue"]
    assert d["under_way_at"] == {"2": [700.0, 610.0], "cue": [1900.0, 1100.0]}
    assert event_from_dict(d, "line 1") == start
    assert "under_way" not in event_to_dict(ShotStart(0.0, 0, 1, 0.9, BallId.CUE, {}))
    assert "under_way_at" not in event_to_dict(ShotStart(0.0, 0, 1, 0.9, BallId.CUE, {}))
    d["under_way_at"] = [1, 2]
    with pytest.raises(EventLogError, match="line 1: 'under_way_at' must be an object"):
        event_from_dict(d, "line 1")
