"""Golden tests on the pool and snooker sample clips (sample_videos/pool/): analyzed from their
pixels with the shipped YOLO model, every pocketing (which ball, which pocket) and every first
contact of the cue ball is found, and nothing is pocketed that did not drop (the 6 rattling in
the jaws stays out); the calls are those of the physics truth under each clip's game (nine-ball
000 2.5, 6.1-6.3; seven-ball; snooker 002 snooker ART 1.6, 2.2). And the committed expected outputs
(tests/golden/expected/<clip>.json, written on purpose by ``python tests/golden/regenerate.py``):
calls, pocketings, first contacts and events in order exactly, their times within a few ms.

Tier ``golden``; the clips outside regenerate.DEFAULT_TIER are also ``slow`` (``pytest -m golden``
runs them all). The trained model missing from models/ fails (test_expected_outputs.py), no skip."""

import json

import numpy as np
import pytest
from regenerate import DEFAULT_TIER, POOL_CLIPS, analyze, differences, expected_path, outputs, truth_path

from tabletrack.truth_eval import ClipTruth, first_contacts, off_table, pocketings, pool_call_key, position_errors_mm

pytestmark = pytest.mark.golden


#: Known gaps, each a measured failure of the shipped model (strict: the test fails when it is fixed,
#: so the mark comes off). None now: the snooker break-off's packed reds, which the finder alone
#: mostly missed, are found with the proposals of vision/proposals.py.
KNOWN: set[tuple[str, str]] = set()


def _known(request, what: str, stem: str) -> None:
    if (stem, what) in KNOWN:
        request.applymarker(pytest.mark.xfail(strict=True, reason=f"{stem}: the 15-red pack is mostly not found"))


@pytest.fixture(
    scope="module",
    params=[pytest.param(v, id=v.stem, marks=() if v.stem in DEFAULT_TIER else pytest.mark.slow) for v in POOL_CLIPS],
)
def analyzed(request, tmp_path_factory):
    video = request.param
    result = analyze(video, tmp_path_factory.mktemp(video.stem))
    return video, result, ClipTruth.load(truth_path(video))


def test_outputs_as_committed(analyzed) -> None:
    """Calls, pocketings, first contacts, events in order: as in the committed expected output."""
    video, result, _ = analyzed
    expected = json.loads(expected_path(video).read_text(encoding="utf-8"))
    diffs = differences(outputs(video, result.events, result.calls), expected)
    assert not diffs, (
        f"{video.stem}: {len(diffs)} differences from {expected_path(video).name}; if the new outputs "
        f"are right, run python tests/golden/regenerate.py {video.stem}: {diffs[:4]}"
    )


def test_every_pocketing_found(analyzed) -> None:
    """Which ball, which pocket; a ball in the jaws that stays out is no pocketing."""
    video, result, truth = analyzed
    assert pocketings(result.events) == pocketings(truth.events), video.stem


def test_balls_off_the_table_found(analyzed) -> None:
    """000 6.1 / 2.3(d): a ball that jumps off the table is seen to leave it."""
    video, result, truth = analyzed
    assert off_table(result.events) == off_table(truth.events), video.stem


def test_first_contact_found(analyzed, request) -> None:
    """000 6.2 / 002 snooker ART 2.2: the first ball the cue ball touched."""
    video, result, truth = analyzed
    _known(request, "first_contact", video.stem)
    assert first_contacts(result.events) == first_contacts(truth.events), video.stem


def test_calls_equal_truth(analyzed, request) -> None:
    video, result, truth = analyzed
    _known(request, "calls", video.stem)
    assert [pool_call_key(c) for c in result.calls] == [pool_call_key(c) for c in truth.calls()], video.stem


def test_ball_centres_within_three_mm(analyzed) -> None:
    video, result, truth = analyzed
    e = position_errors_mm(result.tracks, truth)
    assert len(e) > 100 and float(np.median(e)) <= 3.0, video.stem
