"""bench/sections.py publish_section: what the section scripts (real_variants, real_tracks_variants,
fast_balls, light) do with their section: print it, and write it into the file unless told '-'."""

from __future__ import annotations

from pathlib import Path

import pytest
from bench_script import bench_script


@pytest.fixture(scope="module")
def sections():
    yield from bench_script("sections")


def test_a_dash_prints_the_section_and_writes_nothing(sections, tmp_path: Path, capsys, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    sections.publish_section("## Light\n\nrows", "-", "<!-- a:begin -->", "<!-- a:end -->", "light")
    assert capsys.readouterr().out == "## Light\n\nrows\n"
    assert list(tmp_path.iterdir()) == []


def test_a_path_gets_the_section_between_its_markers_and_the_rest_kept(sections, tmp_path: Path, capsys) -> None:
    out = tmp_path / "BENCHMARKS.md"
    out.write_text("# Benchmarks\n\n<!-- a:begin -->\nold\n<!-- a:end -->\n\ntrailer\n")
    sections.publish_section("new rows", str(out), "<!-- a:begin -->", "<!-- a:end -->", "light")
    assert out.read_text() == "# Benchmarks\n\n<!-- a:begin -->\nnew rows\n<!-- a:end -->\n\ntrailer\n"
    assert capsys.readouterr().out == f"new rows\nwritten the light section of {out}\n"
