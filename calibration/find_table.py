"""Find the table in one frame: the cloth region and the four straight lines of its outline.

Contract: :func:`find_table` takes an 8-bit BGR frame and returns a :class:`TableOutline`: the
cloth's colour, the four outline lines (each fitted by RANSAC to the region's boundary, so that
players, cues, balls on the cushion and pocket cut-outs do not bend it) and their four
intersections, ordered counterclockwise as the image is displayed. The outline is the boundary of the
cloth-coloured region, which takes in the cushions (cloth of the bed's hue and saturation, only
darker), so it lies near the cloth/wood edge; it is only the starting point of the camera solve
(:mod:`calibration.auto`), which then measures the edges to sub-pixel precision.

How the cloth is told from the rest: a billiard cloth is one saturated hue over a large, nearly
convex region. Each peak of the hue histogram of saturated pixels is tried; its largest connected
region, small holes (balls, marks, hands) filled, scores by area times solidity⁴ (a carpet or a
lit wall is large but not convex, or has the table as a big hole in it). A frame where no region
covers ``MIN_AREA_FRACTION`` of the image with solidity ``MIN_SOLIDITY`` and a four-sided outline
raises :class:`~calibration.result.CalibrationError` with one line saying what was found instead.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from calibration.result import CalibrationError

MIN_AREA_FRACTION = 0.06
MIN_SOLIDITY = 0.80
_WORK_SIDE_PX = 800  # the segmentation runs on a copy this size (longer side)


@dataclass(frozen=True)
class ClothColour:
    """Median colour of the cloth region: OpenCV HSV (hue 0..179) and BGR."""

    hue: float
    sat: float
    val: float
    bgr: tuple[float, float, float]


@dataclass(frozen=True)
class TableOutline:
    """The table's outline in full-resolution pixels. ``corners_px`` (4, 2) counterclockwise as
    displayed; side ``i`` runs from corner ``i`` to corner ``i + 1`` and lies on ``lines[i]``
    ``(a, b, c)`` with ``a x + b y + c = 0``, ``a² + b² = 1``. ``cut_sides`` lists sides that run
    along the frame's border (the table is cut off there). ``mask`` (H, W) uint8 is the cloth
    region (255 inside)."""

    corners_px: tuple[tuple[float, float], ...]
    lines: tuple[tuple[float, float, float], ...]
    side_inliers: tuple[int, ...]
    cut_sides: tuple[int, ...]
    cloth: ClothColour
    area_fraction: float
    solidity: float
    mask: np.ndarray = field(repr=False, compare=False)


def _circ_dist(h: np.ndarray, h0: float) -> np.ndarray:
    d = np.abs(h.astype(np.float32) - np.float32(h0))
    return np.minimum(d, 180.0 - d)


def _hue_peaks(hue: np.ndarray, cand: np.ndarray, max_peaks: int = 4) -> list[float]:
    hist = np.bincount(hue[cand].ravel(), minlength=180).astype(np.float64)[:180]
    k = np.exp(-0.5 * (np.arange(-6, 7) / 2.0) ** 2)
    hist = np.convolve(np.concatenate([hist[-6:], hist, hist[:6]]), k / k.sum(), mode="same")[6:-6]
    total = max(float(cand.sum()), 1.0)
    peaks: list[float] = []
    work = hist.copy()
    while len(peaks) < max_peaks:
        i = int(np.argmax(work))
        if work[i] < 0.02 * total / 10.0:
            break
        peaks.append(float(i))
        for d in range(-12, 13):
            work[(i + d) % 180] = 0.0
    return peaks


def _region_for_hue(hsv: np.ndarray, h0: float) -> tuple[np.ndarray, float, float] | None:
    """Largest connected region of hue ``h0`` (holes up to a fifth of it filled): (mask, area, solidity)."""
    import cv2

    H, S, V = hsv[..., 0], hsv[..., 1], hsv[..., 2]
    near = _circ_dist(H, h0) <= 12
    core = near & (S >= 60) & (V >= 40)
    if core.sum() < 50:
        return None
    med_s, med_v = float(np.median(S[core])), float(np.median(V[core]))
    m = (near & (S >= 0.45 * med_s) & (V >= 0.25 * med_v)).astype(np.uint8)
    m = cv2.morphologyEx(m, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    m = cv2.morphologyEx(m, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
    n, lab, stats, _ = cv2.connectedComponentsWithStats(m, connectivity=8)
    if n <= 1:
        return None
    i = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    comp = (lab == i).astype(np.uint8)
    contours, hier = cv2.findContours(comp, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_NONE)
    outer = [j for j in range(len(contours)) if hier[0][j][3] < 0]
    j0 = max(outer, key=lambda j: cv2.contourArea(contours[j]))
    outer_area = cv2.contourArea(contours[j0])
    filled = np.zeros_like(comp)
    cv2.drawContours(filled, contours, j0, 1, thickness=cv2.FILLED)
    for j in range(len(contours)):  # holes bigger than a fifth of the region stay holes
        if hier[0][j][3] == j0 and cv2.contourArea(contours[j]) > 0.2 * outer_area:
            cv2.drawContours(filled, contours, j, 0, thickness=cv2.FILLED)
    # thin things of the cloth's hue that touch the table (a lit pillar, a shirt, a cue's shadow) go
    k = max(5, int(round(0.03 * max(comp.shape)))) | 1
    filled = cv2.morphologyEx(filled, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    n, lab, stats, _ = cv2.connectedComponentsWithStats(filled, connectivity=8)
    if n <= 1:
        return None
    filled = (lab == 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))).astype(np.uint8)
    contours, _ = cv2.findContours(filled, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    area = float(filled.sum())
    hull = cv2.convexHull(max(contours, key=cv2.contourArea))
    hull_area = max(float(cv2.contourArea(hull)), 1.0)
    return filled, area, min(area / hull_area, 1.0)


def _quad_from_hull(hull: np.ndarray) -> np.ndarray | None:
    import cv2

    peri = cv2.arcLength(hull, True)
    lo, hi = 0.002, 0.2
    best = None
    for _ in range(40):
        eps = 0.5 * (lo + hi)
        approx = cv2.approxPolyDP(hull, eps * peri, True)
        if len(approx) == 4:
            best = approx.reshape(4, 2).astype(np.float64)
            hi = eps  # prefer the smallest epsilon that gives four corners
        elif len(approx) > 4:
            lo = eps
        else:
            hi = eps
    return best


def _densify(poly: np.ndarray, step: float) -> np.ndarray:
    """Points every ``step`` px along the closed polygon ``poly`` (N, 2)."""
    out = []
    for p, q in zip(poly, np.roll(poly, -1, axis=0)):
        n = max(1, int(np.ceil(np.hypot(*(q - p)) / step)))
        out.append(p[None, :] + (q - p)[None, :] * (np.arange(n) / n)[:, None])
    return np.vstack(out)


def _fit_line(pts: np.ndarray) -> tuple[float, float, float]:
    c = pts.mean(axis=0)
    _, _, vt = np.linalg.svd(pts - c, full_matrices=False)
    a, b = vt[-1]
    return float(a), float(b), float(-(a * c[0] + b * c[1]))


def _intersect(l1: tuple[float, float, float], l2: tuple[float, float, float]) -> tuple[float, float] | None:
    p = np.cross(np.array(l1), np.array(l2))
    if abs(p[2]) < 1e-12:
        return None
    return float(p[0] / p[2]), float(p[1] / p[2])


def _describe(best: tuple | None, frame_area: float) -> str:
    if best is None:
        return "no saturated colour region at all"
    _, hue, area, solidity, _ = best
    return (f"at best a region of hue {hue:.0f} covering {100 * area / frame_area:.1f}% of the image "
            f"with solidity {solidity:.2f}")


def find_table(image_bgr: np.ndarray) -> TableOutline:
    """The cloth region and its four outline lines; :class:`CalibrationError` if there is no table."""
    import cv2

    img = np.asarray(image_bgr)
    if img.ndim != 3 or img.shape[2] != 3 or img.dtype != np.uint8:
        raise CalibrationError(f"frame: expected an 8-bit BGR image (H, W, 3), got {img.dtype} array of shape {img.shape}")
    h, w = img.shape[:2]
    scale = min(1.0, _WORK_SIDE_PX / max(h, w))
    small = cv2.resize(img, (max(1, round(w * scale)), max(1, round(h * scale))), interpolation=cv2.INTER_AREA) \
        if scale < 1.0 else img
    sh, sw = small.shape[:2]
    hsv = cv2.cvtColor(small, cv2.COLOR_BGR2HSV)
    cand = (hsv[..., 1] >= 60) & (hsv[..., 2] >= 40)
    frame_area = float(sh * sw)
    best = None  # (score, hue, area, solidity, mask)
    for h0 in _hue_peaks(hsv[..., 0], cand):
        r = _region_for_hue(hsv, h0)
        if r is None:
            continue
        mask, area, solidity = r
        score = (area / frame_area) * solidity ** 4
        if best is None or score > best[0]:
            best = (score, h0, area, solidity, mask)
    expectation = (f"no table found in the frame: expected a cloth region covering at least "
                   f"{100 * MIN_AREA_FRACTION:.0f}% of the image, solidity >= {MIN_SOLIDITY:.2f}, "
                   "with a four-sided outline; got ")
    if best is None or best[2] / frame_area < MIN_AREA_FRACTION or best[3] < MIN_SOLIDITY:
        raise CalibrationError(expectation + _describe(best, frame_area))
    _, h0, area, solidity, mask = best

    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    contour = max(contours, key=cv2.contourArea)
    hull = cv2.convexHull(contour)
    quad = _quad_from_hull(hull)
    if quad is None:
        raise CalibrationError(expectation + f"a region of hue {h0:.0f} whose outline has no four clear sides")
    # counterclockwise as displayed (negative shoelace in y-down pixel coordinates)
    area_signed = 0.5 * float(np.sum(quad[:, 0] * np.roll(quad[:, 1], -1) - np.roll(quad[:, 0], -1) * quad[:, 1]))
    if area_signed > 0:
        quad = quad[::-1]
    start = int(np.argmax(quad[:, 1] - quad[:, 0]))  # the corner nearest the bottom-left first
    quad = np.roll(quad, -start, axis=0)

    # each side: a line through the hull's boundary between two corners (the hull bridges notches
    # cut by players, cues and pockets), its ends left out where corners round off
    ring = _densify(hull.reshape(-1, 2).astype(np.float64), step=1.0)
    lines, inliers, cut = [], [], []
    for i in range(4):
        a, b = quad[i], quad[(i + 1) % 4]
        d = b - a
        length = float(np.hypot(*d))
        u = d / length
        nrm = np.array([-u[1], u[0]])
        t = (ring - a) @ u / length
        dist = np.abs((ring - a) @ nrm)
        sel = ring[(t > 0.12) & (t < 0.88) & (dist < max(6.0, 0.08 * length))]
        if len(sel) < 10:
            raise CalibrationError(expectation + f"a region of hue {h0:.0f} whose side {i} has no straight edge")
        lines.append(_fit_line(sel))
        inliers.append(len(sel))
        border = ((sel[:, 0] <= 2) | (sel[:, 0] >= sw - 3) | (sel[:, 1] <= 2) | (sel[:, 1] >= sh - 3)).mean()
        if border > 0.5:
            cut.append(i)
    corners = []
    for i in range(4):
        p = _intersect(lines[i - 1], lines[i])
        if p is None:
            raise CalibrationError(expectation + "an outline with two parallel neighbouring sides")
        corners.append(p)
    inv = 1.0 / scale
    corners_full = tuple((x * inv, y * inv) for x, y in corners)
    lines_full = tuple((a, b, c * inv) for a, b, c in lines)
    full_mask = cv2.resize(mask * 255, (w, h), interpolation=cv2.INTER_NEAREST) if scale < 1.0 else mask * 255
    core = (mask > 0) & cand
    med = np.median(hsv[core], axis=0) if core.any() else np.array([h0, 0, 0])
    bgr = np.median(small[core], axis=0) if core.any() else np.zeros(3)
    cloth = ClothColour(hue=float(h0), sat=float(med[1]), val=float(med[2]), bgr=tuple(float(v) for v in bgr))
    return TableOutline(
        corners_px=corners_full, lines=lines_full, side_inliers=tuple(inliers), cut_sides=tuple(cut), cloth=cloth,
        area_fraction=area / frame_area, solidity=solidity, mask=full_mask,
    )
