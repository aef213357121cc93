"""The committed expected outputs of the golden clips (tests/golden/expected/<clip>.json), checked
without analyzing anything (unit tier, milliseconds): one per sample clip, none stray, each agreeing
with its clip's physics truth (the calls, the cue ball's cushion counts, the pocketings, the balls
off the table, the first contacts of the true events, judged as the clip's game), so an expected
output written from a wrong analysis fails here even where its golden test is in the slow tier.
And the comparison itself: it sees a changed call, tolerates event times within TIME_TOL_S."""

from __future__ import annotations

import copy
import json

import pytest
from regenerate import (
    CAROM_CLIPS,
    DEFAULT_TIER,
    EXPECTED_DIR,
    POOL_CLIPS,
    TIME_TOL_S,
    articles,
    differences,
    expected_path,
    truth_differences,
    truth_outputs,
)

CLIPS = CAROM_CLIPS + POOL_CLIPS


def test_the_sample_clips_and_the_trained_model_are_in_the_repository() -> None:
    """Committed data missing is a bug: it fails here (no skip)."""
    from vision.yolo import DEFAULT_CLASSIFIER, DEFAULT_DETECTOR

    assert len(CAROM_CLIPS) >= 12 and len(POOL_CLIPS) >= 8, (CAROM_CLIPS, POOL_CLIPS)
    assert DEFAULT_DETECTOR.is_file() and DEFAULT_CLASSIFIER.is_file(), "the trained model is not in models/"


def test_one_expected_output_per_clip_none_stray() -> None:
    have = {p.stem for p in EXPECTED_DIR.glob("*.json")} - {"real_three_cushion"}
    assert have == {v.stem for v in CLIPS}, "run python tests/golden/regenerate.py for the missing ones"


def test_the_default_tier_has_a_carom_a_pool_and_a_snooker_clip() -> None:
    stems = {v.stem for v in CLIPS}
    assert set(DEFAULT_TIER) <= stems
    tables = {
        json.loads(v.with_name(v.stem + ".truth.json").read_text(encoding="utf-8")).get("table", "carom")
        for v in CLIPS
        if v.stem in DEFAULT_TIER
    }
    assert {t.split("_")[0] for t in tables} == {"carom", "pool", "snooker"}, tables


@pytest.mark.parametrize("video", CLIPS, ids=[v.stem for v in CLIPS])
def test_expected_output_agrees_with_the_truth(video) -> None:
    expected = json.loads(expected_path(video).read_text(encoding="utf-8"))
    assert expected["clip"] == video.stem
    assert expected["shots"] and all(s["call"] is not None for s in expected["shots"])
    assert truth_differences(expected, truth_outputs(video)) == [], video.stem


def test_articles_are_the_citations_of_the_reason() -> None:
    reason = (
        "Point: the cue ball (white) hit the red first, then made 3 cushion impacts before reaching the yellow "
        "(003 art. 2(a), 3; 002 ART 27); 2 kisses (valid either way, 003 art. 15). player 1 plays the white "
        "(the starter chooses, 003 art. 4(c))."
    )
    assert articles(reason) == ["003 art. 2(a), 3; 002 ART 27"]
    assert articles("Legal: pots the 5 (000 2.5). BEA continues (000 2.5).") == ["000 2.5", "000 2.5"]


def test_differences_see_any_change_but_event_times_within_the_tolerance() -> None:
    doc = truth_outputs(CAROM_CLIPS[0])
    assert differences(doc, doc) == []
    jitter = copy.deepcopy(doc)
    for e in jitter["shots"][0]["events"]:
        e["t"] += 0.8 * TIME_TOL_S
    assert differences(jitter, doc) == []
    late = copy.deepcopy(doc)
    late["shots"][0]["events"][1]["t"] += 2 * TIME_TOL_S
    assert len(differences(late, doc)) == 1
    miss = copy.deepcopy(doc)
    miss["shots"][0]["call"]["points"] = 1 - miss["shots"][0]["call"]["points"]
    assert differences(miss, doc) and truth_differences(miss, doc)
    fewer = copy.deepcopy(doc)
    del fewer["shots"][0]["events"][2]
    assert differences(fewer, doc)
    swapped = copy.deepcopy(doc)
    ev = swapped["shots"][0]["events"]
    ev[1], ev[2] = ev[2], ev[1]
    assert differences(swapped, doc), "two events at different times listed in the wrong order"
    tie = copy.deepcopy(doc)
    ev = tie["shots"][0]["events"]
    ev[2]["t"] = ev[1]["t"] + 0.5 * TIME_TOL_S
    tied = copy.deepcopy(tie)
    tied["shots"][0]["events"][1:3] = tied["shots"][0]["events"][2:0:-1]
    assert differences(tied, tie) == [], "two events within the tolerance may come in either order"
    cited = copy.deepcopy(doc)
    cited["shots"][0]["call"]["articles"] = []
    assert differences(cited, doc) and not truth_differences(cited, doc)
