"""bench/real_tracks_variants.py's re-sampling: each variant changes the real recorder's reports
as its docstring says, keeps every ball's first and last report where it thins them, and repeats
with the same seed."""

from __future__ import annotations

import numpy as np
import pytest
from bench_script import bench_script

# two balls: the white reported every 20 ms for 0.5 s, the red at the start and at the end
ROWS = [(0.0, "red", 500.0, 400.0)] + [(0.02 * k, "white", 100.0 + 30.0 * k, 200.0) for k in range(26)]
ROWS += [(0.6, "red", 520.0, 410.0)]
ROWS.sort(key=lambda r: r[0])


@pytest.fixture(scope="module")
def variants():
    yield from bench_script("real_tracks_variants")


def _of(rows, ball: str):  # type: ignore[no-untyped-def]
    return [r for r in rows if r[1] == ball]


@pytest.mark.parametrize(("variant", "gap_s"), [("rate25", 0.035), ("rate17", 0.055)])
def test_a_slower_recorder_spaces_a_balls_reports_and_keeps_its_first_and_last(
    variants, variant: str, gap_s: float
) -> None:
    out = variants.resample(ROWS, variant, np.random.default_rng(0), 2840.0, 1420.0)
    white = _of(out, "white")
    assert white[0] == _of(ROWS, "white")[0] and white[-1] == _of(ROWS, "white")[-1]
    assert all(b[0] - a[0] >= gap_s - 1e-9 for a, b in zip(white[:-2], white[1:-1]))
    assert len(white) < len(_of(ROWS, "white"))
    assert _of(out, "red") == _of(ROWS, "red"), "a ball reported twice keeps both"


def test_dropping_reports_keeps_each_balls_first_and_last_and_repeats(variants) -> None:
    a = variants.resample(ROWS, "drop", np.random.default_rng(3), 2840.0, 1420.0)
    b = variants.resample(ROWS, "drop", np.random.default_rng(3), 2840.0, 1420.0)
    assert a == b and len(a) < len(ROWS)
    for ball in ("white", "red"):
        assert _of(a, ball)[0] == _of(ROWS, ball)[0] and _of(a, ball)[-1] == _of(ROWS, ball)[-1]


@pytest.mark.parametrize(
    ("variant", "check"),
    [
        ("mirror", lambda r, o: (o[2], o[3]) == (2840.0 - r[2], 1420.0 - r[3]) and o[0] == r[0]),
        ("offset", lambda r, o: o[0] == pytest.approx(r[0] + 3.7) and o[2:] == r[2:]),
        ("noise", lambda r, o: o[0] == r[0] and 0.0 < abs(o[2] - r[2]) < 10.0),
        ("original", lambda r, o: o == r),
    ],
)
def test_each_report_changed_as_the_variant_says(variants, variant: str, check) -> None:  # type: ignore[no-untyped-def]
    out = variants.resample(ROWS, variant, np.random.default_rng(1), 2840.0, 1420.0)
    assert len(out) == len(ROWS) and all(check(r, o) for r, o in zip(ROWS, out))


def test_an_unknown_variant_is_refused(variants) -> None:
    with pytest.raises(ValueError, match="expected one of"):
        variants.resample(ROWS, "upside-down", np.random.default_rng(0), 2840.0, 1420.0)
