"""The rectified table view: a top-down image of the plane of the ball centres.

Detection runs here rather than in the raw frame because a ball has a fixed size and shape in it
wherever it lies, and its centre maps to table millimetres by a scale and an offset. The view
samples the plane z = R (one ball radius above the cloth), so a ball's silhouette centre there is
already corrected for the ball's height (parallax), and lens distortion is undone by the same
remap. Pixel (u, v) ↔ table (x, y): ``x = u / s - margin``, ``y = W + margin - v / s`` (y = 0, the
right cushion, at the bottom, as in the camera's default view).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from calibration.camera import CameraModel
from calibration.table import TableSpec


@dataclass(frozen=True)
class RectifiedGeometry:
    length_mm: float
    width_mm: float
    margin_mm: float
    px_per_mm: float
    z_mm: float

    @property
    def size_px(self) -> tuple[int, int]:
        """(width, height) of the rectified image."""
        s = self.px_per_mm
        return (
            int(round((self.length_mm + 2 * self.margin_mm) * s)),
            int(round((self.width_mm + 2 * self.margin_mm) * s)),
        )

    def uv_to_mm(self, u: np.ndarray, v: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Pixel centres use the OpenCV convention: pixel (0, 0) covers [0, 1) and its centre is 0."""
        s = self.px_per_mm
        x = (np.asarray(u, np.float64) + 0.5) / s - self.margin_mm
        y = self.width_mm + self.margin_mm - (np.asarray(v, np.float64) + 0.5) / s
        return x, y

    def mm_to_uv(self, x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        s = self.px_per_mm
        u = (np.asarray(x, np.float64) + self.margin_mm) * s - 0.5
        v = (self.width_mm + self.margin_mm - np.asarray(y, np.float64)) * s - 0.5
        return u, v


#: rows of a 2048 px wide view projected at once when the maps are made (fewer in a wider one)
ROWS_PER_BAND_PX = 32


class Rectifier:
    """Remaps a raw frame into the rectified view (one ``cv2.remap`` with fixed-point maps).

    ``__call__`` gives the whole view; :meth:`coarse` the view at half resolution (for finding
    candidates cheaply) and :meth:`patch` one window of the full-resolution view (for measuring a
    candidate), so a frame need not be remapped whole at full resolution."""

    def __init__(
        self, camera: CameraModel, table: TableSpec, px_per_mm: float = 0.5, margin_mm: float | None = None
    ) -> None:
        margin = table.ball_radius_mm if margin_mm is None else margin_mm
        self.geometry = RectifiedGeometry(table.length_mm, table.width_mm, margin, px_per_mm, table.ball_radius_mm)
        w, h = self.geometry.size_px
        mx = np.empty((h, w), np.float32)
        my = np.empty((h, w), np.float32)
        # a band of rows at a time: the whole view's points at once (1.6 M for a snooker table)
        # took ~120 MB of temporaries, whose first touch cost 0.3-0.4 s of page faults in a
        # fresh process; a band's stay in the cache (the same arithmetic per point)
        # bands of equal height, none under ROWS_PER_BAND_PX's share (a remainder of a row or two
        # would fall under CameraModel.project's many-points path: other arithmetic)
        bands = max(1, h // max(1, ROWS_PER_BAND_PX * 2048 // max(w, 1)))
        uu = np.arange(w, dtype=np.float64)
        for band in np.array_split(np.arange(h), bands):
            r0, r1 = int(band[0]), int(band[-1]) + 1
            band_u, band_v = np.meshgrid(uu, np.arange(r0, r1, dtype=np.float64))
            x, y = self.geometry.uv_to_mm(band_u.ravel(), band_v.ravel())
            px = camera.project(np.column_stack([x, y, np.full_like(x, self.geometry.z_mm)]))
            mx[r0:r1] = px[:, 0].reshape(r1 - r0, w)
            my[r0:r1] = px[:, 1].reshape(r1 - r0, w)
        self._m1, self._m2 = cv2.convertMaps(mx, my, cv2.CV_16SC2)
        # half resolution: pixel (i, j) of the coarse view is the centre of full pixels 2i..2i+1
        mxc = cv2.resize(mx, (w // 2, h // 2), interpolation=cv2.INTER_AREA)
        myc = cv2.resize(my, (w // 2, h // 2), interpolation=cv2.INTER_AREA)
        self._c1, self._c2 = cv2.convertMaps(mxc, myc, cv2.CV_16SC2)
        self.camera = camera
        self._sparse: dict[int, tuple[np.ndarray, np.ndarray]] = {}  # stride -> maps of every stride-th pixel
        self._coarse_sparse: dict[int, tuple[np.ndarray, np.ndarray]] = {}  # the same, of the coarse view

    def __call__(self, frame_bgr: np.ndarray) -> np.ndarray:
        return _remap(frame_bgr, self._m1, self._m2)

    def coarse(self, frame_bgr: np.ndarray) -> np.ndarray:
        """The view at half resolution (each pixel the mean position of a 2x2 block)."""
        return _remap(frame_bgr, self._c1, self._c2)

    def coarse_window(self, frame_bgr: np.ndarray, u0: int, v0: int, u1: int, v1: int) -> np.ndarray:
        """Half-resolution view pixels [v0:v1, u0:u1] (the same values as :meth:`coarse`'s there:
        each pixel is its own map entry's interpolation)."""
        return _remap(frame_bgr, self._c1[v0:v1, u0:u1], self._c2[v0:v1, u0:u1])

    def coarse_sparse(self, frame_bgr: np.ndarray, stride: int) -> np.ndarray:
        """Half-resolution view pixels [::stride, ::stride] (the same values as :meth:`coarse`'s)."""
        return _remap(frame_bgr, *_strided(self._coarse_sparse, self._c1, self._c2, stride))

    def patch(self, frame_bgr: np.ndarray, u0: int, v0: int, u1: int, v1: int) -> np.ndarray:
        """Full-resolution view pixels [v0:v1, u0:u1]."""
        return _remap(frame_bgr, self._m1[v0:v1, u0:u1], self._m2[v0:v1, u0:u1])

    def sparse(self, frame_bgr: np.ndarray, stride: int) -> np.ndarray:
        """View pixels [::stride, ::stride] (the same values as the whole view's, remapped alone:
        a few thousand pixels instead of the whole view)."""
        return _remap(frame_bgr, *_strided(self._sparse, self._m1, self._m2, stride))


def _remap(frame_bgr: np.ndarray, m1: np.ndarray, m2: np.ndarray) -> np.ndarray:
    """``frame_bgr`` through fixed-point maps (bilinear, black outside the frame): each output
    pixel is its own map entry's interpolation, so any window or stride of the maps gives the
    same values as the whole view there."""
    return cv2.remap(
        frame_bgr, m1, m2, interpolation=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0)
    )


def _strided(
    cache: dict[int, tuple[np.ndarray, np.ndarray]], m1: np.ndarray, m2: np.ndarray, stride: int
) -> tuple[np.ndarray, np.ndarray]:
    """Every ``stride``-th entry of the maps ``m1, m2`` (contiguous), made once per stride into ``cache``."""
    maps = cache.get(stride)
    if maps is None:
        maps = (np.ascontiguousarray(m1[::stride, ::stride]), np.ascontiguousarray(m2[::stride, ::stride]))
        cache[stride] = maps
    return maps


class LazyView:
    """One frame's rectified view, remapped only where it is read: :meth:`whole` the full view
    (remapped once, then kept), :meth:`window` a window of it (from the full view when that is
    made, else remapped on its own: the same pixels, since each is the same map entry's
    interpolation). ``shape`` is the full view's.

    Why: between key frames the guided detector (:mod:`vision.guided`) only classifies crops
    around the predicted balls; the whole view's remap was the largest cost of such a frame (5-7
    ms on the pool and snooker samples), a crop's window is 40x40 px."""

    def __init__(self, rectifier: Rectifier, frame_bgr: np.ndarray) -> None:
        self.rectifier = rectifier
        self.frame = frame_bgr
        w, h = rectifier.geometry.size_px
        self.shape = (h, w) + tuple(frame_bgr.shape[2:])
        self._whole: np.ndarray | None = None

    def whole(self) -> np.ndarray:
        if self._whole is None:
            self._whole = self.rectifier(self.frame)
        return self._whole

    def window(self, u0: int, v0: int, u1: int, v1: int) -> np.ndarray:
        """View pixels [v0:v1, u0:u1] (inside the view)."""
        if self._whole is not None:
            return self._whole[v0:v1, u0:u1]
        return self.rectifier.patch(self.frame, u0, v0, u1, v1)

    def sparse(self, stride: int) -> np.ndarray:
        """View pixels [::stride, ::stride] (from the full view when that is made)."""
        if self._whole is not None:
            return self._whole[::stride, ::stride]
        return self.rectifier.sparse(self.frame, stride)


def view_thumbnail(view: np.ndarray | LazyView, stride: int) -> np.ndarray:
    """Every ``stride``-th pixel of the view, grey and blurred (5x5) against the sensor noise, as
    int16: a still test's thumbnail (what changed between two frames), costing a remap of that
    many pixels only."""
    px = view.sparse(stride) if isinstance(view, LazyView) else view[::stride, ::stride]
    grey = cv2.cvtColor(np.ascontiguousarray(px), cv2.COLOR_BGR2GRAY) if px.ndim == 3 else np.ascontiguousarray(px)
    return cv2.GaussianBlur(grey, (5, 5), 0).astype(np.int16)


def as_view_array(view: np.ndarray | LazyView) -> np.ndarray:
    """The full view as an array (a :class:`LazyView` remapped whole)."""
    return view.whole() if isinstance(view, LazyView) else view
