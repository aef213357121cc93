"""Whole-file outputs appear whole or not at all; streamed outputs keep the .partial mark until
their run ends well (common/atomic.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from common.atomic import atomic_path, partial_path, streamed_path, write_text_atomic


class Boom(RuntimeError):
    pass


def test_atomic_write_replaces_only_on_success(tmp_path: Path) -> None:
    p = tmp_path / "calib.json"
    p.write_text("old")
    write_text_atomic(p, "new")
    assert p.read_text() == "new"
    with pytest.raises(Boom), atomic_path(p) as tmp:
        tmp.write_text("half")
        raise Boom
    assert p.read_text() == "new"
    assert sorted(x.name for x in tmp_path.iterdir()) == ["calib.json"], "the temporary file is removed"


def test_atomic_path_keeps_the_extension_a_writer_needs(tmp_path: Path) -> None:
    with atomic_path(tmp_path / "annotated.mp4.partial", suffix=".mp4") as tmp:
        assert tmp.suffix == ".mp4" and tmp.parent == tmp_path
        tmp.write_bytes(b"x")
    assert (tmp_path / "annotated.mp4.partial").read_bytes() == b"x"


def test_a_streamed_output_stays_partial_when_its_run_fails(tmp_path: Path) -> None:
    p = tmp_path / "calls.jsonl"
    p.write_text("old run\n")
    with pytest.raises(Boom), streamed_path(p) as partial:
        partial.write_text("shot 1\n")
        raise Boom
    assert p.read_text() == "old run\n" and partial_path(p).read_text() == "shot 1\n"
    with streamed_path(p) as partial:
        partial.write_text("shot 1\nshot 2\n")
    assert p.read_text() == "shot 1\nshot 2\n" and not partial_path(p).exists()
