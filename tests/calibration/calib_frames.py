"""A minimal, independent generator of calibration test frames (not the project's renderer).

Every pixel's viewing ray (the lens's own ray, radial distortion included) is intersected with the
planes of the table's features; each layer's coverage comes from the signed distance of that point
to the layer's boundary, converted to pixels by the local gradient, so edges are anti-aliased to
~0.02 px without supersampling (OpenCV's anti-aliased ``fillPoly`` grows polygons by ~0.7 px, too
much for a millimetre-level test). Layers, drawn from the bottom up: a dark floor, the wooden rail
top (z = rail height, out to cushion + rail width), the cushion (cloth hue, darker, out to the
cloth/wood edge at rail height), the bed (cloth, seen up to the nose line at nose height) with a
lighting gradient and weave noise, light diamond dots on the rails, optional balls and an
occluder (a dark blob, e.g. a player's arm), then optical blur, sensor noise and JPEG compression.
"""

from __future__ import annotations

import numpy as np

from calibration import lens
from calibration.camera import CameraModel
from calibration.table import TableSpec, load_table

CLOTHS_BGR = {"blue": (178.0, 98.0, 28.0), "green": (58.0, 124.0, 30.0)}
WOOD_BGR = (34.0, 62.0, 112.0)
FLOOR_BGR = (30.0, 32.0, 36.0)
DIAMOND_BGR = (225.0, 232.0, 236.0)


def _outward(table: TableSpec, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    return np.maximum.reduce([-x, x - table.length_mm, -y, y - table.width_mm])


def _coverage(d_mm: np.ndarray) -> np.ndarray:
    """Pixel coverage of the region {d < 0} from a signed distance field sampled at pixel centres."""
    gy, gx = np.gradient(d_mm)
    g = np.hypot(gx, gy)
    g = np.where(g > 1e-9, g, 1e-9)
    return np.clip(0.5 - d_mm / g, 0.0, 1.0)


def render_frame(
    camera: CameraModel,
    table: TableSpec,
    *,
    cloth: str = "blue",
    seed: int = 0,
    noise_sigma: float = 2.0,
    blur_sigma_px: float = 0.7,
    jpeg_quality: int | None = 88,
    diamond_diameter_mm: float = 12.0,
    balls_mm: tuple[tuple[float, float], ...] = (),
    occluder_px: np.ndarray | None = None,
    cushion_shade: float = 0.68,
    floor_bgr: tuple[float, float, float] | None = None,
) -> np.ndarray:
    """An 8-bit BGR frame of the empty table (plus ``balls_mm`` and an ``occluder_px`` polygon);
    ``floor_bgr`` paints the surround (default a dark floor; the cloth's colour for a carpet or
    floor that matches the cloth)."""
    import cv2

    rng = np.random.default_rng(seed)
    H, W = camera.image_h_px, camera.image_w_px
    vv, uu = np.mgrid[0:H, 0:W].astype(np.float64)
    R = camera.R
    t = np.asarray(camera.tvec_mm)
    n = lens.undistort(np.column_stack([uu.ravel(), vv.ravel()]), camera.fx, camera.cx, camera.cy, camera.k1, camera.k2)
    rays = (np.column_stack([n, np.ones(len(n))]) @ R).reshape(H, W, 3)
    C = camera.centre_mm

    def plane(z: float) -> tuple[np.ndarray, np.ndarray]:
        s = (z - C[2]) / rays[..., 2]
        return C[0] + s * rays[..., 0], C[1] + s * rays[..., 1]

    cloth_bgr = np.array(CLOTHS_BGR[cloth])
    c_w, r_w = table.cushion_width_mm, table.rail_width_mm
    img = np.empty((H, W, 3))
    img[:] = np.array(FLOOR_BGR if floor_bgr is None else floor_bgr)
    img *= (1.0 + 0.05 * cv2.GaussianBlur(rng.standard_normal((H, W)), (0, 0), 3.0))[..., None]

    x45, y45 = plane(table.rail_height_mm)
    o45 = _outward(table, x45, y45)
    wood = np.array(WOOD_BGR) * (1.0 + 0.08 * cv2.GaussianBlur(rng.standard_normal((H, W)), (0, 0), 1.5))[..., None]
    a = _coverage(o45 - (c_w + r_w))[..., None]
    img = img * (1 - a) + wood * a
    for p in camera.project(np.array(table.diamonds_mm())):
        if not (0 <= p[0] < W and 0 <= p[1] < H):
            continue
        i0, i1 = max(0, int(p[1]) - 20), min(H, int(p[1]) + 21)
        j0, j1 = max(0, int(p[0]) - 20), min(W, int(p[0]) + 21)
        win = (slice(i0, i1), slice(j0, j1))
        d = np.min([np.hypot(x45[win] - dx, y45[win] - dy) for dx, dy, _ in table.diamonds_mm()], axis=0)
        a = _coverage(d - diamond_diameter_mm / 2.0)[..., None]
        img[win] = img[win] * (1 - a) + np.array(DIAMOND_BGR) * a
    a = _coverage(o45 - c_w)[..., None]
    img = img * (1 - a) + cloth_bgr * cushion_shade * a

    x37, y37 = plane(table.cushion_nose_height_mm)
    o37 = _outward(table, x37, y37)
    xn = (x37 - table.length_mm / 2) / (table.length_mm / 2)
    yn = (y37 - table.width_mm / 2) / (table.width_mm / 2)
    light = 1.0 - 0.12 * (xn**2 + yn**2) + 0.04 * xn
    weave = 0.03 * cv2.GaussianBlur(rng.standard_normal((H, W)), (0, 0), 0.8)
    bed = cloth_bgr[None, None, :] * (light + weave)[..., None]
    a = _coverage(o37)[..., None]
    img = img * (1 - a) + bed * a

    for bx, by in balls_mm:
        c = camera.project(np.array([[bx, by, table.ball_radius_mm]]))[0]
        depth = (R @ np.array([bx, by, table.ball_radius_mm]) + t)[2]
        r_px = camera.fx * table.ball_radius_mm / depth
        d = np.hypot(uu - c[0], vv - c[1]) - r_px
        a = np.clip(0.5 - d, 0, 1)[..., None]
        img = img * (1 - a) + np.array([235.0, 240.0, 240.0]) * a
    if occluder_px is not None:
        m = np.zeros((H, W), np.uint8)
        cv2.fillPoly(m, [np.round(np.asarray(occluder_px)).astype(np.int32)], 1)
        a = cv2.GaussianBlur(m.astype(np.float64), (0, 0), 1.0)[..., None]
        img = img * (1 - a) + np.array([40.0, 45.0, 60.0]) * a

    if blur_sigma_px > 0:
        img = cv2.GaussianBlur(img, (0, 0), blur_sigma_px)
    img = img + rng.normal(0.0, noise_sigma, img.shape)
    out = np.clip(img + 0.5, 0, 255).astype(np.uint8)
    if jpeg_quality is not None:
        ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(jpeg_quality)])
        out = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return out


def overhead_camera(
    table: TableSpec,
    image_w_px: int,
    image_h_px: int,
    height_mm: float,
    *,
    tilt_deg: float = 0.0,
    tilt_axis: str = "x",
    roll_deg: float = 0.0,
    k1: float = 0.0,
    k2: float = 0.0,
    margin_mm: float = 120.0,
) -> CameraModel:
    """A camera ``height_mm`` above the cloth looking at the table centre, moved ``tilt_deg`` off the
    vertical along the table's x or y axis, rolled ``roll_deg`` about its axis, with the focal length
    chosen so that the table with its rails (plus ``margin_mm``) just fits the frame."""
    L, Wd = table.length_mm, table.width_mm
    centre = np.array([L / 2, Wd / 2, 0.0])
    off = height_mm * np.tan(np.radians(tilt_deg))
    eye = centre + (np.array([off, 0, 0]) if tilt_axis == "x" else np.array([0, off, 0])) + np.array([0, 0, height_mm])
    a = np.radians(roll_deg)
    up = (-np.sin(a), np.cos(a), 0.0)
    ext = table.cushion_width_mm + table.rail_width_mm + margin_mm
    corners = np.array([[-ext, -ext, 0], [L + ext, -ext, 0], [L + ext, Wd + ext, 0], [-ext, Wd + ext, 0]], float)
    probe = CameraModel.look_at(image_w_px, image_h_px, 1000.0, tuple(eye), tuple(centre), up, 0.0, 0.0, table.name)
    p = probe.project_undistorted(corners)
    half = np.max(np.abs(p - np.array([probe.cx, probe.cy])) / np.array([image_w_px / 2, image_h_px / 2]))
    fx = 1000.0 / half
    if k1 < 0:  # barrel distortion pulls the corners in: the table may be framed tighter
        fx *= 1.0 - 0.35 * k1
    return CameraModel.look_at(image_w_px, image_h_px, fx, tuple(eye), tuple(centre), up, k1, k2, table.name)


def ball_plane_errors_mm(
    true: CameraModel, solved: CameraModel, z_mm: float | None = None, inset_mm: float = 0.0
) -> np.ndarray:
    """Distances (mm) between grid points on plane z and where ``solved`` maps ``true``'s pixels of them."""
    table = load_table(solved.table)
    z_mm = table.ball_radius_mm if z_mm is None else z_mm
    gx, gy = np.meshgrid(
        np.linspace(inset_mm, table.length_mm - inset_mm, 29), np.linspace(inset_mm, table.width_mm - inset_mm, 15)
    )
    P = np.column_stack([gx.ravel(), gy.ravel(), np.full(gx.size, z_mm)])
    q = solved.pixel_to_plane(true.project(P), z_mm=z_mm)
    return np.hypot(*(q - P[:, :2]).T)
