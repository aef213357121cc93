"""tabletrack/pipeline.py AnalyzeOptions.on_calls: the calls' table is told the moment the calls are
final, before the annotated video's last frames are drawn (a one-shot clip's whole video is drawn
after the analysis: the call reached the user ~1 s before the command ended), and the summary then
leaves the table out, so that the CLI prints the same text in the same order."""

from __future__ import annotations

from pathlib import Path

import pytest
from small_clips import half_size_calibration, half_size_clip

from tabletrack import annotate, pipeline


def test_the_calls_are_told_before_the_video_is_finished(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    order: list[str] = []
    real_close = annotate.AnnotatedVideo.close

    def close(self: annotate.AnnotatedVideo) -> None:
        order.append("video closed")
        real_close(self)

    monkeypatch.setattr(annotate.AnnotatedVideo, "close", close)
    told: list[str] = []
    opts = pipeline.AnalyzeOptions(
        calibration=str(half_size_calibration(tmp_path / "cal.json")),
        out_dir=tmp_path / "out",
        progress=False,
        on_calls=lambda text: (told.append(text), order.append("calls told")),  # type: ignore[func-returns-value]
    )
    result = pipeline.analyze_video(half_size_clip(tmp_path / "clip.mp4", None), opts)
    assert order == ["calls told", "video closed"]
    assert told == [pipeline.calls_text(result.calls)]
    assert told[0].startswith("shot  player") and "shots:" in told[0]
    assert result.summary.startswith("calibration:"), result.summary[:80]
    assert (tmp_path / "out" / "annotated.mp4").is_file()


def test_without_a_listener_the_summary_opens_with_the_table(tmp_path: Path) -> None:
    opts = pipeline.AnalyzeOptions(
        calibration=str(half_size_calibration(tmp_path / "cal.json")),
        out_dir=tmp_path / "out",
        annotated_video=False,
        progress=False,
    )
    result = pipeline.analyze_video(half_size_clip(tmp_path / "clip.mp4", None), opts)
    assert result.summary.startswith(pipeline.calls_text(result.calls) + "\n\ncalibration:")
