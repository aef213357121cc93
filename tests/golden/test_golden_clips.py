"""Golden tests: every bundled carom sample clip, analyzed from its pixels, gives its committed
expected outputs (tests/golden/expected/<clip>.json, written on purpose by
``python tests/golden/regenerate.py``): the calls, the cue ball's cushion counts and the events in
order, exactly, their times within a few ms. And against the clip's physics truth: the calls and
the cushion counts of the true events (003 art. 2-3, 10; 002 ART 27), ball centres within the
issue's bar (median <= 3 mm).

Tier ``golden``; the clips outside regenerate.DEFAULT_TIER are also ``slow`` (``pytest -m golden``
runs them all)."""

import json

import numpy as np
import pytest
from regenerate import CAROM_CLIPS, DEFAULT_TIER, analyze, differences, expected_path, outputs, truth_path

from tabletrack.truth_eval import ClipTruth, call_key, cue_cushion_key, position_errors_mm

pytestmark = pytest.mark.golden


@pytest.fixture(
    scope="module",
    params=[pytest.param(v, id=v.stem, marks=() if v.stem in DEFAULT_TIER else pytest.mark.slow) for v in CAROM_CLIPS],
)
def analyzed(request, tmp_path_factory):
    video = request.param
    result = analyze(video, tmp_path_factory.mktemp(video.stem))
    return video, result, ClipTruth.load(truth_path(video))


def test_outputs_as_committed(analyzed) -> None:
    """Calls, cushion counts, events in order: as in the committed expected output."""
    video, result, _ = analyzed
    expected = json.loads(expected_path(video).read_text(encoding="utf-8"))
    diffs = differences(outputs(video, result.events, result.calls), expected)
    assert not diffs, (
        f"{video.stem}: {len(diffs)} differences from {expected_path(video).name}; if the new outputs "
        f"are right, run python tests/golden/regenerate.py {video.stem}: {diffs[:4]}"
    )


def test_calls_equal_truth(analyzed) -> None:
    """003 art. 2(a)-(d), 3, 5, 10: point or miss (or foul) as the truth events make it."""
    video, result, truth = analyzed
    assert [call_key(c) for c in result.calls] == [call_key(c) for c in truth.calls()], video.stem


def test_cue_ball_cushion_counts_equal_truth(analyzed) -> None:
    """003 art. 3, 10: the cue ball's cushion impacts before the second ball and in all, per shot,
    as the rules count them (a frozen cue ball's first contact with its cushion does not count)."""
    video, result, truth = analyzed
    found = [cue_cushion_key(c) for c in result.calls]
    true = [cue_cushion_key(c) for c in truth.calls()]
    assert found == true, f"{video.stem}: found {found}, truth {true}"


def test_ball_centres_within_three_mm(analyzed) -> None:
    video, result, truth = analyzed
    errs = position_errors_mm(result.tracks, truth)
    assert len(errs) > 100
    assert float(np.median(errs)) <= 3.0, f"{video.stem}: median centre error {np.median(errs):.2f} mm"
