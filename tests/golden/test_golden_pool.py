"""Golden tests on the pool and snooker sample clips (sample_videos/pool/): analyzed from their
pixels with the shipped YOLO model, every pocketing (which ball, which pocket) and every first
contact of the cue ball is found, and nothing is pocketed that did not drop (the 6 rattling in
the jaws stays out); the calls are those of the physics truth under each clip's game (nine-ball
000 2.5, 6.1-6.3; seven-ball; snooker 002 snooker ART 1.6, 2.2)."""

from pathlib import Path

import numpy as np
import pytest

from calibration.table import load_table
from tabletrack.pipeline import AnalyzeOptions, analyze_video
from tabletrack.truth_eval import ClipTruth, first_contacts, off_table, pocketings, pool_call_key, position_errors_mm
from vision.yolo import DEFAULT_CLASSIFIER, DEFAULT_DETECTOR

REPO = Path(__file__).resolve().parents[2]
CLIPS = sorted((REPO / "sample_videos" / "pool").glob("*.mp4"))
pytestmark = pytest.mark.skipif(not (DEFAULT_DETECTOR.is_file() and DEFAULT_CLASSIFIER.is_file()),
                                reason="the trained model is not in models/")


#: Known gaps, each a measured failure of the shipped model (strict: the test fails when it is fixed,
#: so the mark comes off). None now: the snooker break-off's packed reds, which the finder alone
#: mostly missed, are found with the proposals of vision/proposals.py.
KNOWN: set[tuple[str, str]] = set()


def _known(request, what: str, stem: str) -> None:
    if (stem, what) in KNOWN:
        request.applymarker(pytest.mark.xfail(strict=True, reason=f"{stem}: the 15-red pack is mostly not found"))


@pytest.fixture(scope="module", params=CLIPS, ids=[c.stem for c in CLIPS])
def analyzed(request, tmp_path_factory):
    video: Path = request.param
    truth = ClipTruth.load(video.with_name(video.stem + ".truth.json"))
    out = tmp_path_factory.mktemp(video.stem)
    opts = AnalyzeOptions(game=truth.game, table=load_table(truth.table), out_dir=out, annotated_video=False,
                          progress=False)
    return video, analyze_video(video, opts), truth


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
