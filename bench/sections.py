"""Sections of BENCHMARKS.md that a bench script owns: the text between its two HTML-comment
markers. One place for replacing a section and for keeping the last run's when a script is not
rerun (bench/run.py composes the file from all of them)."""

from __future__ import annotations

from pathlib import Path


def replace_section(text: str, body: str, begin: str, end: str) -> str:
    """``text`` with what lies between ``begin`` and ``end`` replaced by ``body`` (the markers
    kept); ``body`` between new markers appended where ``text`` has none."""
    block = f"{begin}\n{body.rstrip()}\n{end}"
    i, j = text.find(begin), text.find(end)
    if i >= 0 and j > i:
        return text[:i] + block + text[j + len(end) :]
    sep = "" if not text or text.endswith("\n\n") else ("\n" if text.endswith("\n") else "\n\n")
    return text + sep + block + "\n"


def section_body(text: str, begin: str, end: str) -> str | None:
    """The body of the section between ``begin`` and ``end`` in ``text``, None where it has none."""
    i, j = text.find(begin), text.find(end)
    return text[i + len(begin) : j].strip("\n") if i >= 0 and j > i else None


def keep_section(new_text: str, old_text: str, begin: str, end: str) -> str:
    """``new_text`` with the section that ``old_text`` (the file as the last run left it) has."""
    body = section_body(old_text, begin, end)
    return new_text if body is None else replace_section(new_text, body, begin, end)


def write_section(out: Path, body: str, begin: str, end: str) -> None:
    """Put ``body`` between ``begin`` and ``end`` in the file ``out`` (a new file with a heading
    where there is none), the rest of the file as it was."""
    text = out.read_text(encoding="utf-8") if out.is_file() else "# Benchmarks\n\n"
    out.write_text(replace_section(text, body, begin, end), encoding="utf-8")


def publish_section(body: str, out: str, begin: str, end: str, what: str) -> None:
    """Print a bench script's section ``body`` and, unless ``out`` is ``-`` (print only), write
    it into the file ``out`` (:func:`write_section`), saying so: ``what`` names the section."""
    print(body)
    if out != "-":
        write_section(Path(out), body, begin, end)
        print(f"written the {what} section of {out}")
