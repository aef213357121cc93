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
lit wall is large but not convex, or has the table as a big hole in it); the best that also fills
the quadrilateral of its four lines (and stays inside it) is the table. Where no coloured region
qualifies and the middle of the frame is an even unsaturated surface, a grey or white cloth is
looked for instead: the region flooded from the middle through neighbours of nearly its colour
(its ``ClothColour.hue`` is ``GREY_HUE``), which must be framed by the rails (cut by the picture's
border on one side at most). A frame where no region
covers ``MIN_AREA_FRACTION`` of the image with solidity ``MIN_SOLIDITY`` and a four-sided outline
raises :class:`~calibration.result.CalibrationError` with one line saying what was found instead.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from calibration._vec import floats3
from calibration.result import CalibrationError

MIN_AREA_FRACTION = 0.06
GREY_HUE = -1.0  # ClothColour.hue of a grey or white cloth (found by its lightness, not a hue)
MIN_SOLIDITY = 0.80
_WORK_SIDE_PX = 800  # the segmentation runs on a copy this size (longer side)


@dataclass(frozen=True)
class ClothColour:
    """Median colour of the cloth region: OpenCV HSV (hue 0..179, or ``GREY_HUE`` for a grey or
    white cloth) and BGR."""

    hue: float
    sat: float
    val: float
    bgr: tuple[float, float, float]


@dataclass(frozen=True)
class TableOutline:
    """The table's outline in full-resolution pixels. ``corners_px`` (4, 2) counterclockwise as
    displayed; side ``i`` runs from corner ``i`` to corner ``i + 1`` and lies on ``lines[i]``
    ``(a, b, c)`` with ``a x + b y + c = 0``, ``a² + b² = 1``. ``cut_sides`` lists sides that run
    along the picture's border (the frame's, or a letterbox bar's: the table is cut off there). ``mask`` (H, W) uint8 is the cloth
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
        if work[i] < 0.002 * total:  # a fifth of a percent of the saturated pixels per hue step
            break
        peaks.append(float(i))
        for d in range(-12, 13):
            work[(i + d) % 180] = 0.0
    return peaks


def _region_for_hue(hsv: np.ndarray, h0: float) -> list[tuple[np.ndarray, float, float]]:
    """The large connected regions of hue ``h0`` (holes up to a fifth of each filled), largest
    first: (mask, area, solidity) each."""
    m = _hue_mask(hsv, h0)
    return [] if m is None else _solid_regions(m)


def _hue_mask(hsv: np.ndarray, h0: float) -> np.ndarray | None:
    """Pixels of hue ``h0`` (within 12 steps), saturated and bright enough for that hue's cloth
    (uint8 0/1), or None where the hue is hardly there."""
    H, S, V = hsv[..., 0], hsv[..., 1], hsv[..., 2]
    near = _circ_dist(H, h0) <= 12
    core = near & (S >= 60) & (V >= 40)
    if core.sum() < 50:
        return None
    med_s, med_v = float(np.median(S[core])), float(np.median(V[core]))
    return (near & (0.45 * med_s <= S) & (0.25 * med_v <= V)).astype(np.uint8)


def _quad_grid(q: np.ndarray, n: int) -> np.ndarray:
    """(n*n, 2) points spread inside the quadrilateral ``q`` (4, 2) (bilinear in its corners)."""
    t = (np.arange(n) + 0.5) / n
    u, v = np.meshgrid(t, t)
    u, v = u.ravel()[:, None], v.ravel()[:, None]
    return (1 - u) * (1 - v) * q[0] + u * (1 - v) * q[1] + u * v * q[2] + (1 - u) * v * q[3]


def _rail_rectangles(small_bgr: np.ndarray, cloth: np.ndarray, max_out: int = 3) -> list[np.ndarray]:
    """Quadrilaterals (4, 2) of straight edges that frame cloth: where the cloth's colour region is
    not table-shaped (a floor or carpet of the cloth's colour joined to it by an overlay, a shirt,
    a banner across a rail), the table is still the one place framed by four long straight lines
    (the cloth/wood edges of its rails) with cloth all over the inside and, just outside each line,
    no cloth (the rail). Long segments (probabilistic Hough on the edges) in two families of
    directions are paired into quadrilaterals; each scores by the share of its sides the edges
    support, times the cloth inside, times the non-cloth just outside (sampled, so thousands of
    hypotheses cost little); the best ``max_out`` above a floor are returned, best first."""
    import cv2

    h, w = cloth.shape
    side = max(h, w)
    blur = cv2.GaussianBlur(small_bgr, (3, 3), 0)
    edges: np.ndarray = np.zeros(cloth.shape, np.uint8)
    for ch in cv2.split(blur):  # a colour edge (green cloth, brown wood) may be no edge in grey
        edges |= cv2.Canny(ch, 30, 90)
    edges |= cv2.morphologyEx(cloth, cv2.MORPH_GRADIENT, np.ones((3, 3), np.uint8)) * 255  # the cloth's border
    segs = cv2.HoughLinesP(
        edges,
        1,
        np.pi / 360,
        threshold=int(0.08 * side),
        minLineLength=int(0.12 * side),
        maxLineGap=int(0.01 * side) + 2,
    )
    if segs is None or len(segs) < 4:
        return []
    segs = segs.reshape(-1, 4).astype(np.float64)
    length = np.hypot(segs[:, 2] - segs[:, 0], segs[:, 3] - segs[:, 1])
    segs = segs[np.argsort(-length)][:40]
    ang = np.degrees(np.arctan2(segs[:, 3] - segs[:, 1], segs[:, 2] - segs[:, 0])) % 180.0
    lines = [_fit_line(s.reshape(2, 2)) for s in segs]
    near_edge = cv2.dilate(edges, np.ones((5, 5), np.uint8)) > 0
    cl = cloth > 0

    def at(mask: np.ndarray, pts: np.ndarray) -> np.ndarray:
        x = np.clip(np.round(pts[:, 0]).astype(int), 0, w - 1)
        y = np.clip(np.round(pts[:, 1]).astype(int), 0, h - 1)
        inside = (pts[:, 0] >= 0) & (pts[:, 0] < w) & (pts[:, 1] >= 0) & (pts[:, 1] < h)
        return mask[y, x] & inside

    def distinct(idx: list[int]) -> list[int]:  # one segment per line (a long edge breaks into several)
        out: list[int] = []
        for i in idx:
            a, b, c = lines[i]
            mid = segs[i].reshape(2, 2).mean(axis=0)
            if all(
                abs(np.dot(lines[j][:2], mid) + lines[j][2]) > 0.02 * side
                or abs(np.dot(lines[j][:2], (a, b))) < np.cos(np.radians(8))
                for j in out
            ):
                out.append(i)
        return out[:10]

    # the two families: the directions of the longest segment and those about square to it (a
    # camera above the table keeps the rails' images within some 35 degrees of square)
    a0 = ang[0]
    d0 = np.minimum(np.abs(ang - a0), 180 - np.abs(ang - a0))
    fam_a = distinct([i for i in range(len(segs)) if d0[i] <= 20])
    fam_b = distinct([i for i in range(len(segs)) if d0[i] >= 55])
    scored = []
    for ia, ja in ((i, j) for k, i in enumerate(fam_a) for j in fam_a[k + 1 :]):
        for ib, jb in ((i, j) for k, i in enumerate(fam_b) for j in fam_b[k + 1 :]):
            corners = [_intersect(lines[p], lines[q]) for p, q in ((ia, ib), (ib, ja), (ja, jb), (jb, ia))]
            if any(c is None for c in corners):
                continue
            q = np.array(corners)
            area = 0.5 * abs(float(np.sum(q[:, 0] * np.roll(q[:, 1], -1) - np.roll(q[:, 0], -1) * q[:, 1])))
            if (
                area < MIN_AREA_FRACTION * h * w
                or np.any(q < -0.02 * side)
                or np.any(q[:, 0] > 1.02 * w)
                or np.any(q[:, 1] > 1.02 * h)
            ):
                continue
            hull = cv2.convexHull(q.astype(np.float32)).reshape(-1, 2)
            if len(hull) != 4:
                continue
            inside = float(at(cl, _quad_grid(q, 16)).mean())
            if inside < 0.6:
                continue
            ctr = q.mean(axis=0)
            support, outside = [], []
            for i in range(4):
                a, b = q[i], q[(i + 1) % 4]
                t = np.linspace(0.1, 0.9, 40)[:, None]
                p = a + t * (b - a)
                out = p + 0.015 * side * (p - ctr) / np.maximum(np.hypot(*(p - ctr).T), 1e-9)[:, None]
                support.append(float(at(near_edge, p).mean()))
                outside.append(1.0 - float(at(cl, out).mean()))
            score = (
                float(np.mean(support)) * min(support) ** 0.5 * inside * float(np.mean(outside)) * min(outside) ** 0.5
            )
            scored.append((score, q))
    scored.sort(key=lambda e: -e[0])
    return [q for sc, q in scored[:max_out] if sc > 0.15]


def _grey_region(small_bgr: np.ndarray, hsv: np.ndarray) -> tuple[np.ndarray, float, float] | None:
    """For a grey or white cloth (no hue to find it by): the region flooded from the middle of the
    frame (where a broadcast camera puts the table) through neighbours of nearly the same colour,
    so that it follows a lamp's gradual fall-off but stops at the cushion's nose shadow and the
    rails; (mask, area, solidity), or None where the middle is not an even unsaturated surface."""
    import cv2

    if not _grey_middle(hsv):
        return None
    h, w = hsv.shape[:2]
    blur = cv2.medianBlur(small_bgr, 5)
    y0, x0 = int(0.35 * h), int(0.35 * w)
    v = cv2.cvtColor(blur, cv2.COLOR_BGR2HSV)[y0 : int(0.65 * h), x0 : int(0.65 * w), 2].astype(np.float32)
    typical = np.abs(v - np.median(v)) <= 2  # seeds of the middle's typical colour
    if not typical.any():
        return None
    mask = np.zeros((h + 2, w + 2), np.uint8)
    tol = (3, 3, 3)
    # seeds spread over the middle (a cue or an arm across the cloth leaves parts a single flood
    # cannot reach), each flooded unless an earlier flood took it in
    vh, vw = typical.shape
    for fy in (0.15, 0.5, 0.85):
        for fx in (0.15, 0.5, 0.85):
            cy, cx = int(fy * (vh - 1)), int(fx * (vw - 1))
            r = max(2, vh // 8)
            win = typical[max(0, cy - r) : cy + r + 1, max(0, cx - r) : cx + r + 1]
            ys, xs = np.nonzero(win)
            if not len(xs):
                continue
            sx, sy = int(xs[len(xs) // 2] + max(0, cx - r) + x0), int(ys[len(ys) // 2] + max(0, cy - r) + y0)
            if mask[sy + 1, sx + 1]:
                continue
            cv2.floodFill(blur, mask, (sx, sy), 0, tol, tol, 4 | cv2.FLOODFILL_MASK_ONLY | (1 << 8))
    # a dark cue across a grey cloth splits it (a coloured cloth's cue is bridged by the hue test's
    # tolerance): closed over a few cue widths
    return _solid_region(mask[1:-1, 1:-1], close_px=max(5, int(round(0.025 * max(h, w)))) | 1)


def _solid_region(m: np.ndarray, close_px: int = 5) -> tuple[np.ndarray, float, float] | None:
    """The largest connected region of mask ``m``, closed over ``close_px``, its holes up to a
    fifth of it filled and thin parts opened away: (mask, area, solidity)."""
    regions = _solid_regions(m, close_px, max_regions=1)
    return regions[0] if regions else None


def _solid_regions(
    m: np.ndarray, close_px: int = 5, max_regions: int = 4, min_fraction: float = 0.5 * MIN_AREA_FRACTION
) -> list[tuple[np.ndarray, float, float]]:
    """The connected regions of mask ``m`` (closed over ``close_px``) that cover at least
    ``min_fraction`` of it, largest first, at most ``max_regions`` (at least the largest), each as
    :func:`_shaped` makes it. Not only the largest: a floor or carpet of the cloth's colour is a
    region of its own, bigger than the cloth it surrounds (the rails part them), with the table as
    a hole in it; the cloth is then the second region."""
    import cv2

    m = cv2.morphologyEx(m, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    m = cv2.morphologyEx(m, cv2.MORPH_CLOSE, np.ones((close_px, close_px), np.uint8))
    n, lab, stats, _ = cv2.connectedComponentsWithStats(m, connectivity=8)
    if n <= 1:
        return []
    order = 1 + np.argsort(-stats[1:, cv2.CC_STAT_AREA])
    out = []
    for k, i in enumerate(order[:max_regions]):
        if k > 0 and stats[i, cv2.CC_STAT_AREA] < min_fraction * m.size:
            break
        r = _shaped((lab == i).astype(np.uint8))
        if r is not None:
            out.append(r)
    return out


def _shaped(comp: np.ndarray) -> tuple[np.ndarray, float, float] | None:
    """One connected region with its holes up to a fifth of it filled and thin parts opened away:
    (mask, area, solidity)."""
    import cv2

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


def _grey_middle(hsv: np.ndarray) -> bool:
    """The middle of the frame is an even unsaturated (grey, white) surface: a grey cloth, maybe."""
    h, w = hsv.shape[:2]
    mid = hsv[int(0.35 * h) : int(0.65 * h), int(0.35 * w) : int(0.65 * w)]
    v = mid[..., 2].astype(np.float32)
    return bool(
        mid.size
        and float(np.median(mid[..., 1])) < 45
        and float(np.median(v)) > 40
        and float(np.median(np.abs(v - np.median(v)))) < 20
    )


def _grey_hint(hsv: np.ndarray) -> str:
    """A note for frames whose middle is an unsaturated surface that was not found as a table."""
    if _grey_middle(hsv):
        return (
            "; the middle of the frame is an even unsaturated surface, but no grey or white cloth with a "
            "four-sided outline was found there: give the playing surface's corners instead"
        )
    return ""


def _describe(best: tuple | None, frame_area: float) -> str:
    if best is None:
        return "no saturated colour region at all"
    _, hue, area, solidity, _ = best
    return (
        f"at best a region of hue {hue:.0f} covering {100 * area / frame_area:.1f}% of the image "
        f"with solidity {solidity:.2f}"
    )


def _ransac_lines(
    pts: np.ndarray, tol: float, min_support: int, rng: np.random.Generator, max_lines: int = 10, iters: int = 400
) -> list[np.ndarray]:
    """Sequential RANSAC: inlier index arrays of the straight runs of ``pts`` (N, 2), biggest first."""
    left = np.arange(len(pts))
    found: list[np.ndarray] = []
    while len(found) < max_lines and len(left) >= min_support:
        P = pts[left]
        i = rng.integers(0, len(P), iters)
        j = rng.integers(0, len(P), iters)
        best = _best_hypothesis(P, i, j, tol)
        if best.sum() < min_support:
            break
        line = _fit_line(P[best])
        inl = np.abs(P @ np.array(line[:2]) + line[2]) <= tol
        found.append(left[inl])
        left = left[~inl]
    return found


def _best_hypothesis(P: np.ndarray, i: np.ndarray, j: np.ndarray, tol: float, chunk: int = 64) -> np.ndarray:
    """The inliers (within ``tol`` of the line) of the line through points ``P[i[k]]``, ``P[j[k]]``
    that has the most of them, the first such k (pairs under ``10 tol`` apart are no line); all
    False when none is. The hypotheses in chunks of array operations: one at a time they were
    ~0.4 s of each calibration (400 of them on a contour of several thousand points)."""
    best = np.zeros(len(P), bool)
    best_n = 0
    for k0 in range(0, len(i), chunk):
        a, b = i[k0 : k0 + chunk], j[k0 : k0 + chunk]
        d = P[b] - P[a]  # (k, 2)
        n = np.hypot(d[:, 0], d[:, 1])
        ok = n >= 10.0 * tol
        if not ok.any():
            continue
        a, d, n = a[ok], d[ok], n[ok]
        dist = np.abs(
            ((P[None, :, 0] - P[a, None, 0]) * -d[:, 1, None] + (P[None, :, 1] - P[a, None, 1]) * d[:, 0, None])
            / n[:, None]
        )
        counts = (dist <= tol).sum(axis=1)
        k = int(np.argmax(counts))
        if counts[k] > best_n:
            best_n = int(counts[k])
            best = dist[k] <= tol
    return best


def _content_box(val: np.ndarray) -> tuple[int, int, int, int]:
    """(x0, y0, x1, y1) of the picture inside black letterbox or pillarbox bars (inclusive)."""
    rows = np.flatnonzero(val.max(axis=1) > 24)
    cols = np.flatnonzero(val.max(axis=0) > 24)
    if len(rows) == 0 or len(cols) == 0:
        return 0, 0, val.shape[1] - 1, val.shape[0] - 1
    return int(cols[0]), int(rows[0]), int(cols[-1]), int(rows[-1])


def _fit_outline(mask: np.ndarray, rng: np.random.Generator) -> tuple | str:
    """(quad (4, 2) counterclockwise as displayed, lines, inlier counts, inlier points per side) of a
    region, or a phrase saying why it has no four-sided outline."""
    import cv2

    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    contour = max(contours, key=cv2.contourArea)
    hull = cv2.convexHull(contour)
    quad = _quad_from_hull(hull)
    if quad is None:
        return "whose outline has no four clear sides"
    area_signed = 0.5 * float(np.sum(quad[:, 0] * np.roll(quad[:, 1], -1) - np.roll(quad[:, 0], -1) * quad[:, 1]))
    if area_signed > 0:
        quad = quad[::-1]
    quad = np.roll(quad, -int(np.argmax(quad[:, 1] - quad[:, 0])), axis=0)  # nearest the bottom-left first

    # Each side: the longest straight run of the region's boundary along the rough side (RANSAC), so
    # that a player or a cue across a corner, which the hull would bridge, does not tilt it; where no
    # run qualifies, the hull's boundary between the corners (bridging notches and pockets).
    pts = contour.reshape(-1, 2).astype(np.float64)
    size = float(np.sqrt(cv2.contourArea(hull)))
    runs = _ransac_lines(pts, tol=2.0, min_support=max(15, int(0.04 * size)), rng=rng)
    ring = _densify(hull.reshape(-1, 2).astype(np.float64), step=1.0)
    lines, inliers, on_side = [], [], []
    for i in range(4):
        a, b = quad[i], quad[(i + 1) % 4]
        d = b - a
        length = float(np.hypot(*d))
        u = d / length
        nrm = np.array([-u[1], u[0]])
        best = None
        for run in runs:
            P = pts[run]
            la, lb, _ = _fit_line(P)
            if abs(la * u[0] + lb * u[1]) > np.sin(np.radians(20.0)):
                continue  # not along this side
            t = (P - a) @ u / length
            if np.median(np.abs((P - a) @ nrm)) > 0.12 * size or np.median(t) < -0.1 or np.median(t) > 1.1:
                continue
            if best is None or len(run) > len(best):
                best = run
        if best is not None and np.ptp((pts[best] - a) @ u) >= 0.3 * length:
            sel = pts[best]
        else:
            t = (ring - a) @ u / length
            dist = np.abs((ring - a) @ nrm)
            sel = ring[(t > 0.12) & (t < 0.88) & (dist < max(6.0, 0.08 * length))]
        if len(sel) < 10:
            return f"whose side {i} has no straight edge"
        lines.append(_fit_line(sel))
        inliers.append(len(sel))
        on_side.append(sel)
    corners = []
    for i in range(4):
        p = _intersect(lines[i - 1], lines[i])
        if p is None:
            return "whose outline has two parallel neighbouring sides"
        corners.append(p)
    q = np.array(corners)
    # the region must fill the quadrilateral and stay inside it: a table does, a shirt or a wall does not
    qmask = np.zeros_like(mask)
    cv2.fillPoly(qmask, [np.round(q).astype(np.int32)], 1)
    inside = float((mask & qmask).sum())
    if inside < 0.8 * max(float(qmask.sum()), 1.0) or inside < 0.92 * float(mask.sum()):
        return (
            f"whose outline is not four-sided (it fills {100 * inside / max(float(qmask.sum()), 1.0):.0f}% "
            "of its best quadrilateral)"
        )
    return q, tuple(lines), tuple(inliers), on_side


def find_table(image_bgr: np.ndarray) -> TableOutline:
    """The cloth region and its four outline lines; :class:`CalibrationError` if there is no table."""
    import cv2

    img = np.asarray(image_bgr)
    if img.ndim != 3 or img.shape[2] != 3 or img.dtype != np.uint8:
        raise CalibrationError(
            f"frame: expected an 8-bit BGR image (H, W, 3), got {img.dtype} array of shape {img.shape}"
        )
    h, w = img.shape[:2]
    scale = min(1.0, _WORK_SIDE_PX / max(h, w))
    small = (
        cv2.resize(img, (max(1, round(w * scale)), max(1, round(h * scale))), interpolation=cv2.INTER_AREA)
        if scale < 1.0
        else img
    )
    sh, sw = small.shape[:2]
    hsv = cv2.cvtColor(small, cv2.COLOR_BGR2HSV)
    cand = (hsv[..., 1] >= 60) & (hsv[..., 2] >= 40)
    frame_area = float(sh * sw)
    regions = []  # (score, hue, area, solidity, mask)
    for h0 in _hue_peaks(hsv[..., 0], cand):
        for mask, area, solidity in _region_for_hue(hsv, h0):
            regions.append(((area / frame_area) * solidity**4, h0, area, solidity, mask))
    regions.sort(key=lambda r: -r[0])
    grey = None
    if not any(r[2] / frame_area >= MIN_AREA_FRACTION and r[3] >= MIN_SOLIDITY for r in regions):
        grey = _grey_region(small, hsv)  # no coloured cloth: a grey or white one (hue -1 marks it)
        if grey is not None:
            regions.insert(0, ((grey[1] / frame_area) * grey[2] ** 4, GREY_HUE, grey[1], grey[2], grey[0]))
    expectation = (
        f"no table found in the frame: expected a cloth region covering at least "
        f"{100 * MIN_AREA_FRACTION:.0f}% of the image, solidity >= {MIN_SOLIDITY:.2f}, "
        "with a four-sided outline; got "
    )
    usable = [r for r in regions if r[2] / frame_area >= MIN_AREA_FRACTION and r[3] >= MIN_SOLIDITY]
    x0, y0, x1, y1 = _content_box(hsv[..., 2])
    rng = np.random.default_rng(0)
    why = ""
    found = []
    for _, h0, area, solidity, mask in usable:
        fitted = _fit_outline(mask, rng)
        if isinstance(fitted, str):
            why = why or f"a region of hue {h0:.0f} covering {100 * area / frame_area:.1f}% of the image {fitted}"
            continue
        quad, lines, inliers, on_side = fitted
        e = max(3.0, 0.012 * max(sw, sh))  # the opening leaves the mask a little short of the border
        cut = tuple(
            i
            for i, sel in enumerate(on_side)
            if ((sel[:, 0] <= x0 + e) | (sel[:, 0] >= x1 - e) | (sel[:, 1] <= y0 + e) | (sel[:, 1] >= y1 - e)).mean()
            > 0.5
        )
        if h0 == GREY_HUE and (len(cut) > 1 or area > 0.9 * frame_area):
            # an even grey that the frame cuts on two sides or more is a wall, a floor, a fog of
            # noise: a grey cloth is found only framed by its rails
            why = why or f"an unsaturated region covering {100 * area / frame_area:.1f}% of the image, cut by the frame"
            continue
        found.append((len(cut), (h0, area, solidity, mask, quad, lines, inliers, cut)))
        if not cut:
            break  # a whole outline: a table's cloth is framed by its rails, a shirt or a carpet runs off the frame
    if not found or min(f[0] for f in found) > 0:
        # no colour region with a whole four-sided outline: look for the table by its shape, the
        # rectangle of rail edges around cloth of one of the hues seen (see _rail_rectangles)
        tried = 0
        for h0 in dict.fromkeys(r[1] for r in regions if r[1] != GREY_HUE):
            hue_mask = _hue_mask(hsv, h0)
            if hue_mask is None:
                continue
            for q in _rail_rectangles(small, hue_mask):
                tried += 1
                qmask = np.zeros_like(hue_mask)
                cv2.fillPoly(qmask, [np.round(q).astype(np.int32)], 1)
                shaped = _shaped((hue_mask & qmask).astype(np.uint8))
                if shaped is None:
                    continue
                mask, area, solidity = shaped
                fitted = _fit_outline(mask, rng)
                if isinstance(fitted, str) or area < MIN_AREA_FRACTION * frame_area:
                    continue
                quad, lines, inliers, on_side = fitted
                found = [(0, (h0, area, solidity, mask, quad, lines, inliers, ()))]
                break
            if found and found[0][0] == 0:
                break
        if not found:
            base = why if usable else _describe(regions[0] if regions else None, frame_area) + _grey_hint(hsv)
            raise CalibrationError(
                expectation + base + f"; looked for the rectangle of the rails' straight edges around cloth as "
                f"well ({tried} candidate{'s' if tried != 1 else ''}, none framing a table): give the playing "
                "surface's corners instead (--corners)"
            )
    h0, area, solidity, mask, quad, lines, inliers, cut = min(found, key=lambda f: f[0])[1]
    inv = 1.0 / scale
    corners_full = tuple((float(x) * inv, float(y) * inv) for x, y in quad)
    lines_full = tuple((a, b, c * inv) for a, b, c in lines)
    full_mask = cv2.resize(mask * 255, (w, h), interpolation=cv2.INTER_NEAREST) if scale < 1.0 else mask * 255
    core = (mask > 0) & (cand if h0 != GREY_HUE else True)
    med = np.median(hsv[core], axis=0) if core.any() else np.array([h0, 0, 0])
    bgr = np.median(small[core], axis=0) if core.any() else np.zeros(3)
    cloth = ClothColour(hue=float(h0), sat=float(med[1]), val=float(med[2]), bgr=floats3(bgr))
    return TableOutline(
        corners_px=corners_full,
        lines=lines_full,
        side_inliers=tuple(inliers),
        cut_sides=cut,
        cloth=cloth,
        area_fraction=area / frame_area,
        solidity=solidity,
        mask=full_mask,
    )
