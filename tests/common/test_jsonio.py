"""The bounded readers of common/: every bound gives the caller's error in one line naming the
file (and line, and field), never RecursionError, ValueError or a machine's worth of memory."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from common.bounded import bounded_lines, read_text_capped
from common.errors import TabletrackError
from common.jsonio import JsonLimits, iter_json_lines, load_json_file, loads_bounded


class ReaderError(TabletrackError):
    """A reader's own error class: what the bounded loaders must raise."""


@pytest.mark.parametrize(
    "text,expect",
    [
        ("[" * 10_000 + "]" * 10_000, "f.json: nested deeper than 32 levels"),
        ('{"a": NaN}', "field 'a': expected a finite number (JSON has no NaN"),
        ('{"a": [1, -Infinity]}', "field 'a/1': expected a finite number"),
        ('{"a": 1e400}', "field 'a': expected a finite number, got 1e400"),
        ('{"shots": {"3": ' + "9" * 5000 + "}}", "field 'shots/3': expected a finite number of at most 40 digits"),
        ('{"t": 1' + "0" * 400 + ".5}", "field 't': expected a finite number of at most 40 characters"),
        ('{"name": "' + "x" * 70_000 + '"}', "field 'name': expected a string of at most 65536 characters, got 70000"),
        ('{"a": 1', "not valid JSON (Expecting ',' delimiter"),
        ('"\x1b[31m"', "Invalid control character at line 1"),
    ],
)
def test_loads_bounded_refuses_in_one_line(text: str, expect: str) -> None:
    with pytest.raises(ReaderError) as e:
        loads_bounded(text, "f.json", ReaderError)
    msg = str(e.value)
    assert expect in msg and "\n" not in msg and len(msg) < 300, msg


@pytest.mark.parametrize(
    "text,value",
    [
        ('{"a": [1, 2.5, "[[[[", {"b": null}]}', {"a": [1, 2.5, "[[[[", {"b": None}]}),
        ('"\\\\[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["', "\\" + "[" * 42),  # brackets in a string
        ("[" * 32 + "]" * 32, [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]),
        ("12345678901234567890", 12345678901234567890),
    ],
)
def test_loads_bounded_keeps_valid_json(text: str, value: object) -> None:
    assert loads_bounded(text, "f.json", ReaderError) == value


def test_a_file_larger_than_the_cap_is_refused_naming_the_cap(tmp_path: Path) -> None:
    p = tmp_path / "big.json"
    p.write_text("[" + "1," * 600 + "1]")
    with pytest.raises(ReaderError, match=r"big.json: the referee input is larger than 1 KiB"):
        load_json_file(p, "referee input", ReaderError, max_bytes=1024)
    assert load_json_file(p, "referee input", ReaderError, max_bytes=4096)[0] == 1


def test_dev_zero_as_a_whole_file_stops_at_the_cap() -> None:
    with pytest.raises(ReaderError, match="larger than 1 MiB"):
        read_text_capped("/dev/zero", "table spec", ReaderError, max_bytes=1 << 20)


def test_a_missing_or_binary_file_names_the_file(tmp_path: Path) -> None:
    with pytest.raises(ReaderError, match="nope.json: cannot read the corners file: not found"):
        load_json_file(tmp_path / "nope.json", "corners", ReaderError)
    b = tmp_path / "bin.json"
    b.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(ReaderError, match="bin.json: not a text file"):
        load_json_file(b, "calibration", ReaderError)


def test_a_bom_is_dropped() -> None:
    assert list(bounded_lines(io.StringIO("\ufeffa,b\nc\n"), "f", ReaderError)) == [(1, "a,b\n"), (2, "c\n")]


@pytest.mark.parametrize(
    "text,expect",
    [
        ("a\n" + "x" * 100 + "\n", "f:2: line longer than 64 characters"),
        ("x" * 65, "f:1: line longer than 64"),
        ("ok\n\x00\x00\n", "f:2: not a text file (a NUL byte"),
    ],
)
def test_bounded_lines_refuse_long_lines_and_binary(text: str, expect: str) -> None:
    with pytest.raises(ReaderError, match=expect.replace("(", r"\(")):
        list(bounded_lines(io.StringIO(text), "f", ReaderError, max_chars=64))


def test_a_line_exactly_at_the_bound_passes() -> None:
    assert list(bounded_lines(io.StringIO("x" * 64 + "\r\n"), "f", ReaderError, max_chars=64))[0][0] == 1


def test_dev_zero_as_lines_fails_fast_without_growing() -> None:
    with open("/dev/zero", encoding="utf-8") as f, pytest.raises(ReaderError, match="line longer|NUL"):
        list(bounded_lines(f, "zero", ReaderError, max_chars=1 << 16))


def test_json_lines_name_the_line() -> None:
    lines = io.StringIO('{"a": 1}\n\n{"a": NaN}\n')
    it = iter_json_lines(lines, "ev.jsonl", ReaderError, JsonLimits())
    assert next(it) == ("ev.jsonl:1", {"a": 1})
    with pytest.raises(ReaderError, match=r"ev.jsonl:3: field 'a'"):
        next(it)
