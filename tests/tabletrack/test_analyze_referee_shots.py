"""`analyze --input REF.json` refuses referee input for a shot the video never had, as `judge`
does (rules.core.judge.check_referee_shots): it was silently dropped, so a numbering mistake in
the referee's file went unnoticed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from calibration.table import load_table
from rules.core.errors import RefereeInputError
from synth.physics.shots import load_shot
from tabletrack.shot_judge import ShotJudge
from tracking.events import group_shots


@pytest.mark.parametrize(
    "given,ok", [({"1": {"note": "seen by the referee"}}, True), ({"5": {"note": "seen by the referee"}}, False)]
)
def test_referee_input_for_a_shot_the_video_never_had_is_refused(tmp_path: Path, given: dict, ok: bool) -> None:
    ref = tmp_path / "clip.referee.json"
    ref.write_text(json.dumps({"shots": given}))
    judge = ShotJudge("three-cushion", str(ref), 60.0, tmp_path / "calls.jsonl.partial", load_table("carom"))
    for shot in group_shots(load_shot("point_2a").events):
        judge.judge(shot)
    judge.close()
    if ok:
        judge.check_shots()
        return
    with pytest.raises(RefereeInputError, match=r"referee input gives shot 5, but the video .* has shots 1\.\.1"):
        judge.check_shots()
