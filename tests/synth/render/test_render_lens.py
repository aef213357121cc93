"""The lens rays: every pixel's ray is the exact inverse of CameraModel.project, distortion included."""

import numpy as np
import pytest
from render_helpers import overhead_camera

from calibration.camera import CameraModel
from synth.render.lens import LensModelError, frame_rays, pixel_rays, sample_offsets


@pytest.mark.parametrize("k1,k2", [(-0.12, 0.0), (-0.06, 0.01), (0.0, 0.0), (0.02, 0.0), (-0.10, -0.02)])
def test_ray_of_projected_point_passes_through_it(k1, k2):
    cam = overhead_camera(640, 360, k1=k1, k2=k2)
    rng = np.random.default_rng(3)
    pts = np.column_stack([rng.uniform(-300, 3140, 200), rng.uniform(-300, 1720, 200), rng.uniform(-100, 120, 200)])
    px = cam.project(pts)
    inside = (px[:, 0] > 0) & (px[:, 0] < 640) & (px[:, 1] > 0) & (px[:, 1] < 360)
    d = pixel_rays(cam, px[inside, 0], px[inside, 1])
    v = pts[inside] - cam.centre_mm[None, :]
    miss_mm = np.linalg.norm(np.cross(v, d), axis=1) / np.linalg.norm(d, axis=1)
    assert inside.sum() > 100
    assert miss_mm.max() < 1e-6 * np.linalg.norm(v, axis=1).max()


def test_ray_has_unit_camera_depth():
    cam = overhead_camera(320, 180)
    d = frame_rays(cam)
    assert d.shape == (180, 320, 3)
    depth = d.reshape(-1, 3) @ cam.R[2]
    assert np.allclose(depth, 1.0, atol=1e-5)


def test_folding_lens_is_refused():
    cam = CameraModel.look_at(640, 480, 300.0, (1420, 710, 3500), (1420, 710, 0), k1=-0.5)
    with pytest.raises(LensModelError, match="monotonic"):
        frame_rays(cam)


@pytest.mark.parametrize("n", [1, 2, 3])
def test_rotated_grid_gives_every_sample_its_own_row_and_column(n):
    o = sample_offsets(n)
    assert o.shape == (n * n, 2)
    assert np.allclose(o.mean(axis=0), 0.0)
    assert len(np.unique(np.round(o[:, 0], 9))) == n * n
    assert len(np.unique(np.round(o[:, 1], 9))) == n * n
    assert np.abs(o).max() < 0.5
