"""The guided detector (vision/guided.py): the full detector on key frames and wherever the last
frames do not predict the balls; the classifier's crops in between."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tracking.detections import BallDetection, BallMotion, MotionState, ball_label
from tracking.ids import BallId
from vision.guided import GuidedConfig, GuidedDetector
from vision.rectify import RectifiedGeometry
from vision.yolo import YoloDetector

R = 14.0


class FakeYolo:
    """A detector over a scripted world: ``balls`` (label -> (u, v)) is what the frame shows."""

    labels = ("cue", "1")
    streaks = False
    detections = YoloDetector.detections  # the real one: labels and beliefs from the probabilities

    def __init__(self) -> None:
        self.geometry = RectifiedGeometry(2540.0, 1270.0, 28.575, 0.5, 28.575)
        self.r_px = R
        self.balls: dict[str, tuple[float, float]] = {}
        self.full_calls = 0

    def _det(self, label: str, u: float, v: float) -> BallDetection:
        x, y = self.geometry.uv_to_mm(np.array([u]), np.array([v]))
        return BallDetection(float(x[0]), float(y[0]), u, v, R, ball_label(label), 0.9, {ball_label(label): 1.0})

    def detect(self, view):
        self.full_calls += 1
        return [self._det(k, *c) for k, c in self.balls.items()]

    def classify(self, view, u, v, r_px=None, refine=None):
        """The crop's regression reaches one radius: a ball farther off is not seen."""
        n = len(self.labels)
        p = np.zeros((len(u), n + 1))
        uo, vo = np.array(u, float), np.array(v, float)
        for i, (a, b) in enumerate(zip(u, v)):
            best = min(self.balls.items(), key=lambda kv: np.hypot(kv[1][0] - a, kv[1][1] - b), default=None)
            if best is not None and np.hypot(best[1][0] - a, best[1][1] - b) < R:
                p[i, self.labels.index(best[0])] = 0.95
                p[i, n] = 0.05
                uo[i], vo[i] = best[1]
            else:
                p[i, n] = 1.0
        return p, uo, vo


VIEW = np.zeros((656, 1299, 3), np.uint8)


def _view(world: dict[str, tuple[float, float]], hand_at: float | None = None) -> np.ndarray:
    """The view of ``world``: each ball a grey disc; ``hand_at``: a dark-skinned patch (a hand
    or a cue over the table) at that u."""
    view = np.full(VIEW.shape, 60, np.uint8)
    for u, v in world.values():
        cv2.circle(view, (int(round(u)), int(round(v))), int(R), (220, 220, 220), -1)
    if hand_at is not None:
        cv2.rectangle(view, (int(hand_at), 500), (int(hand_at) + 60, 560), (90, 120, 170), -1)
    return view


def _run(fake, guided, frames, fps=30.0, hands=None):
    out = []
    for i, world in enumerate(frames):
        fake.balls = world
        before = fake.full_calls
        dets = guided.detect(_view(world, None if hands is None else hands[i]), i / fps)
        out.append((fake.full_calls > before, {d.label.value: (d.u_px, d.v_px) for d in dets}))
    return out


WORLD = {"cue": (300.0, 300.0), "1": (700.0, 320.0)}


@pytest.mark.parametrize(
    "hands, full, why",
    [
        # a hand moving over the table: the view changes, so a ball may have appeared under it
        ([100.0 + 30.0 * i for i in range(12)], [True, False, False, False] * 3, "a hand moves over the table"),
        # nothing changed since the first frame's full detection: no ball can have appeared
        ([None] * 12, [True] + [False] * 11, "the view is unchanged"),
        # a hand came and went before the key frame was due: the view is back as it was
        ([None, 400.0, None] + [None] * 9, [True] + [False] * 11, "the view came back as it was"),
        # a hand that stays where it came to rest: the view differs from the last full frame's
        (
            [None, None, 400.0] + [400.0] * 9,
            [True, False, False, False, True, False, False, False] + [False] * 4,
            "a hand came and rests",
        ),
    ],
)
def test_balls_at_rest_take_the_full_detector_only_on_key_frames_of_a_changed_view(hands, full, why):
    fake = FakeYolo()
    g = GuidedDetector(fake, GuidedConfig(key_every=4))
    res = _run(fake, g, [WORLD] * 12, hands=hands)
    assert [f for f, _ in res] == full, why
    assert all(seen == WORLD for _, seen in res)
    assert g.stats.full == sum(full) and g.stats.guided == 12 - sum(full)


def _motion(resting: bool, unplaced: int, seen: bool = True) -> MotionState:
    balls = tuple(BallMotion(BallId(b), 0.0, 0.0, 0.0, 0.0, seen, False) for b in ("cue", "1"))
    return MotionState(0.0, resting, balls, unplaced)


@pytest.mark.parametrize(
    "motion, full, why",
    [
        (_motion(True, 0), [True] + [False] * 11, "every ball of the set rests in view: none can appear"),
        (_motion(True, 1), [True, False, False, False] * 3, "a ball of the set is not on the table: it may be placed"),
        (_motion(False, 0), [True, False, False, False] * 3, "a ball moves"),
        (_motion(True, 0, seen=False), [True, False, False, False] * 3, "a ball was not seen on the last frame"),
    ],
)
def test_a_settled_table_takes_no_periodic_key_frame_however_the_view_changes(motion, full, why):
    # a hand or a cue over the table by a ball (nine-ball and snooker breaks): the view changes,
    # yet while every ball of the set rests where the crops confirm it no ball can appear
    fake = FakeYolo()
    g = GuidedDetector(fake, GuidedConfig(key_every=4))
    got = []
    for i in range(12):
        fake.balls = WORLD
        before = fake.full_calls
        g.detect(_view(WORLD, 100.0 + 30.0 * i), i / 30.0, motion)
        got.append(fake.full_calls > before)
    assert got == full, why


def test_a_ball_placed_while_the_others_rest_is_found_on_the_next_key_frame():
    # a ball placed by hand (ball in hand, a respotted colour): the view changed where it lies
    fake = FakeYolo()
    g = GuidedDetector(fake, GuidedConfig(key_every=4))
    placed = {**WORLD, "1": (700.0, 320.0)}
    frames = [{"cue": WORLD["cue"]}] * 2 + [placed] * 6
    res = _run(fake, g, frames)
    assert [f for f, _ in res] == [True, False, False, False, True, False, False, False]
    assert "1" not in res[3][1] and res[4][1] == placed


def test_a_ball_rolling_steadily_is_followed_by_its_velocity():
    fake = FakeYolo()
    g = GuidedDetector(fake, GuidedConfig(key_every=100))
    # 20 px a frame: farther than the crop's reach (one radius) without the prediction
    frames = [{"cue": (300.0 + 20.0 * i, 300.0)} for i in range(10)]
    res = _run(fake, g, frames)
    # the first frame, and the second (no velocity known yet: the ball left its crop)
    assert [full for full, _ in res] == [True, True] + [False] * 8
    assert res[-1][1]["cue"] == pytest.approx((480.0, 300.0))


@pytest.mark.parametrize(
    "change, why",
    [
        (lambda w: {"cue": (w["cue"][0] + 3 * R, w["cue"][1]), "1": w["1"]}, "the cue ball struck"),
        (lambda w: {"cue": (w["cue"][0] + 0.8 * R, w["cue"][1]), "1": w["1"]}, "moved farther than max_shift_r"),
        (lambda w: {"cue": w["cue"]}, "the 1 pocketed or hidden"),
    ],
)
def test_anything_the_prediction_did_not_foresee_takes_the_full_detector(change, why):
    fake = FakeYolo()
    g = GuidedDetector(fake, GuidedConfig(key_every=100))
    world = {"cue": (300.0, 300.0), "1": (700.0, 320.0)}
    res = _run(fake, g, [world, world, change(world)])
    assert [full for full, _ in res] == [True, False, True], why
    assert res[-1][1] == change(world)


def test_two_predictions_ending_on_one_ball_take_the_full_detector():
    fake = FakeYolo()
    g = GuidedDetector(fake, GuidedConfig(key_every=100))
    world = {"cue": (300.0, 300.0), "1": (300.0 + 2.2 * R, 300.0)}
    fake.balls = world
    g.detect(VIEW, 0.0)
    fake.balls = {"cue": (300.0 + 1.1 * R, 300.0)}  # one ball where both were predicted (misread)
    before = fake.full_calls
    g.detect(VIEW, 1 / 30)
    assert fake.full_calls == before + 1


def test_a_gap_between_frames_takes_the_full_detector():
    fake = FakeYolo()
    g = GuidedDetector(fake, GuidedConfig(key_every=100, max_gap_s=0.5))
    fake.balls = {"cue": (300.0, 300.0)}
    g.detect(VIEW, 0.0)
    g.detect(VIEW, 0.1)
    before = fake.full_calls
    g.detect(VIEW, 1.0)
    assert fake.full_calls == before + 1


def test_key_every_below_one_is_refused():
    with pytest.raises(ValueError, match="key_every"):
        GuidedDetector(FakeYolo(), GuidedConfig(key_every=0))


class StreakYolo(FakeYolo):
    """The scripted world plus ``streaks``: (u, v) of unnamed streak detections on every full run."""

    def __init__(self) -> None:
        super().__init__()
        self.streaks: list[tuple[float, float, float]] = []  # (u, v, angle of the path, rad)

    def detect(self, view):
        return super().detect(view) + self._streak_dets()

    def _streak_dets(self) -> list[BallDetection]:
        out = []
        for u, v, a in self.streaks:
            x, y = self.geometry.uv_to_mm(np.array([u]), np.array([v]))
            du, dv = 30.0 * np.cos(a), 30.0 * np.sin(a)
            ends = (u - du, v - dv, u + du, v + dv)
            out.append(BallDetection(float(x[0]), float(y[0]), u, v, R, None, 0.3, streak_px=ends))
        return out


@pytest.mark.parametrize(
    "places, kept",
    [
        # a ball in flight: a streak further on each frame, every one kept
        ([(300.0, 300.0, 0.0), (400.0, 300.0, 0.0), (500.0, 300.0, 0.0)], [True, True, True]),
        # something that stays (a facing's edge by a corner): only its first sighting
        ([(300.0, 300.0, 0.0), (302.0, 301.0, 0.0), (301.0, 299.0, 0.0)], [True, False, False]),
        # a second ball crossing the first one's path where it streaked: its own ends, kept
        ([(300.0, 300.0, 0.0), (301.0, 300.0, 1.3)], [True, True]),
    ],
)
def test_a_streak_where_one_was_seen_before_is_no_ball_in_flight(places, kept) -> None:
    fake = StreakYolo()
    guided = GuidedDetector(fake, GuidedConfig(key_every=1))
    got = []
    for i, p in enumerate(places):
        fake.streaks = [p]
        dets = guided.detect(VIEW, i / 30.0)
        got.append(any(d.streak_px is not None for d in dets))
    assert got == kept


def test_a_static_streak_is_forgotten_after_the_window() -> None:
    fake = StreakYolo()
    guided = GuidedDetector(fake, GuidedConfig(key_every=1, static_streak_s=1.0))
    fake.streaks = [(300.0, 300.0, 0.0)]
    assert any(d.streak_px for d in guided.detect(VIEW, 0.0))
    fake.streaks = []
    guided.detect(VIEW, 0.6)
    fake.streaks = [(300.0, 300.0, 0.0)]
    assert any(d.streak_px for d in guided.detect(VIEW, 1.5))


class SearchYolo(StreakYolo):
    """:class:`StreakYolo` whose streaks are also found by the streak search alone."""

    streaks = True

    def __init__(self) -> None:
        super().__init__()
        self.searches = 0

    def streak_detections(self, view, u_balls, v_balls, lab_diff=None):
        self.searches += 1
        return [(d, (0.0, 0.0, 0.0, 0.0), ()) for d in self._streak_dets()]


def test_a_ball_that_vanished_is_searched_for_as_a_streak_on_guided_frames() -> None:
    # real broadcast (issue 13, dev Clip1): the cue ball of the break left its rest as a streak
    # the full detector missed (the cue stick over it); on the next frames the crops followed the
    # rack and nobody looked for the cue ball, a clear streak on three more frames
    fake = SearchYolo()
    guided = GuidedDetector(fake, GuidedConfig(key_every=100, search_frames=5))
    rack = {"1": (600.0, 300.0)}
    worlds = [
        ({"cue": (100.0, 300.0), **rack}, []),
        ({"cue": (100.0, 300.0), **rack}, []),
        (rack, []),  # struck: the crop at its rest is empty, and no streak is found
        (rack, [(300.0, 300.0, 0.0)]),
        (rack, [(450.0, 300.0, 0.0)]),
    ]
    got = []
    for i, (balls, streaks) in enumerate(worlds):
        fake.balls, fake.streaks = balls, streaks
        before = fake.full_calls
        dets = guided.detect(VIEW, i / 25.0)
        got.append((fake.full_calls > before, sorted((d.u_px, d.v_px) for d in dets if d.streak_px)))
    assert [full for full, _ in got] == [True, False, True, False, False], "the rack's crops still guide"
    assert got[3][1] == [(300.0, 300.0)] and got[4][1] == [(450.0, 300.0)]


def test_no_streak_search_while_nothing_vanished() -> None:
    fake = SearchYolo()
    guided = GuidedDetector(fake, GuidedConfig(key_every=100))
    fake.balls = {"cue": (100.0, 300.0), "1": (600.0, 300.0)}
    for i in range(4):
        guided.detect(VIEW, i / 25.0)
    assert fake.searches == 0
