"""One frame: static scene, balls, occluders, sensor noise, burned-in graphics, in that order.

Contract: :class:`FrameRenderer` renders successive frames of one :class:`StaticScene` to 8-bit
BGR images (the order OpenCV reads video in). The layers are composed as a camera and a broadcast
chain would: the scene and the balls (motion-blurred over the exposure), a hand or cue in front of
them, sensor noise, then the scoreboard graphics. :func:`render_frame` is the one-call form for a
single frame (calibration and detection test images).

Noise is gaussian with ``style.noise_sigma`` levels per channel, drawn per frame from a small
bank of precomputed fields combined at random (a fresh 1080p gaussian field per frame would cost
more than the whole frame); the generator passed in decides which, so frames stay reproducible.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from synth.render.balls import BallPainter, BallsState
from synth.render.occluder import HandCuePose, OccluderPainter
from synth.render.overlay import ScoreboardOverlay
from synth.render.scene import StaticScene


class SensorNoise:
    """Zero-mean gaussian noise (``sigma`` levels) added to uint8 frames with saturating adds.

    A bank of ``bank`` fields is split into positive and negative parts; a frame adds the positive
    part of one field and subtracts the negative part of another, chosen at random, so that
    consecutive frames carry different noise (bank² combinations) at the cost of two adds."""

    def __init__(self, shape: tuple[int, int, int], sigma: float, rng: np.random.Generator, bank: int = 4) -> None:
        self.sigma = float(sigma)
        # max(N, 0) - max(N', 0) of independent normals has variance sigma² (1 - 1/pi)
        s = self.sigma / np.sqrt(1.0 - 1.0 / np.pi)
        self.pos: list[np.ndarray] = []
        self.neg: list[np.ndarray] = []
        for _ in range(bank):
            n = rng.standard_normal(shape, dtype=np.float32) * s
            self.pos.append(np.clip(np.rint(n), 0, 255).astype(np.uint8))
            self.neg.append(np.clip(np.rint(-n), 0, 255).astype(np.uint8))

    def apply(self, frame_u8: np.ndarray, rng: np.random.Generator) -> None:
        import cv2

        i, j = rng.integers(0, len(self.pos), size=2)
        if len(self.pos) > 1 and i == j:
            j = (j + 1) % len(self.pos)
        cv2.add(frame_u8, self.pos[int(i)], dst=frame_u8)
        cv2.subtract(frame_u8, self.neg[int(j)], dst=frame_u8)


def _to_u8(a: np.ndarray) -> np.ndarray:
    return np.clip(a + 0.5, 0.0, 255.0).astype(np.uint8)


class FrameRenderer:
    """Renders frames of one scene; keeps the per-clip state (ball cache, noise bank, overlay).

    Only the boxes the balls and occluders touch are converted from float each frame: the rest of
    the frame is the static scene's 8-bit image, copied."""

    def __init__(self, scene: StaticScene, rng: np.random.Generator, noise_bank: int = 4) -> None:
        self.scene = scene
        self.rng = rng
        self.painter = BallPainter(scene)
        self.occluders = OccluderPainter(scene)
        self._work = scene.image_bgr.copy()
        self._base = _to_u8(scene.image_bgr)
        H, W = scene.shape
        sigma = scene.style.noise_sigma
        self.noise = SensorNoise((H, W, 3), sigma, rng, noise_bank) if sigma > 0 else None
        sb = scene.style.scoreboard
        self.overlay = ScoreboardOverlay(scene, sb) if sb is not None else None

    @property
    def overlay_box_px(self) -> tuple[int, int, int, int] | None:
        return None if self.overlay is None else self.overlay.box

    def render(
        self,
        states: BallsState | Sequence[BallsState],
        occluders: Sequence[HandCuePose] = (),
    ) -> tuple[np.ndarray, list[tuple[tuple[int, int, int, int], np.ndarray]]]:
        """The frame (H, W, 3) uint8 BGR, and the (box, coverage) of every occluder drawn."""
        subs = [states] if isinstance(states, BallsState) else list(states)
        work = self._work
        boxes = self.painter.draw(work, subs)
        covers = []
        for pose in occluders:
            got = self.occluders.draw(work, pose)
            if got is not None:
                covers.append(got)
                boxes.append(got[0])
        out = self._base.copy()
        for x0, y0, x1, y1 in boxes:
            out[y0:y1, x0:x1] = _to_u8(work[y0:y1, x0:x1])
        for x0, y0, x1, y1 in boxes:
            work[y0:y1, x0:x1] = self.scene.image_bgr[y0:y1, x0:x1]
        if self.noise is not None:
            self.noise.apply(out, self.rng)
        if self.overlay is not None:
            self.overlay.apply(out)
        return out, covers


def render_frame(
    scene: StaticScene,
    states: BallsState | Sequence[BallsState],
    rng: np.random.Generator | None = None,
    occluders: Sequence[HandCuePose] = (),
) -> np.ndarray:
    """One frame (H, W, 3) uint8 BGR of the balls in ``states`` (one state, or sub-frame states
    spread over the exposure for motion blur) over the scene, with the style's noise and overlay."""
    r = rng if rng is not None else np.random.default_rng(0)
    return FrameRenderer(scene, r, noise_bank=1).render(states, occluders)[0]
