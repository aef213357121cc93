"""The root of every error a user can cause: bad input, never a bug.

Contract: each stage's error for what a user can get wrong (a malformed event log, a video that
does not decode, a table that is not found, an unknown game) derives from ``TabletrackError``;
the command line turns it, and only it (with the operating system's ``OSError`` for files),
into one line ``tabletrack: error: …`` and exit status 2. Anything else that escapes is a bug
and is reported as one, with its traceback. ``TabletrackError`` stays a ``ValueError`` so code
that catches bad values keeps working.

Why: when every error was a plain ``ValueError``, a bug deep in the numerics (a shape mismatch,
an empty array) reached the user as "bad input", and nobody learnt of the bug.
"""

from __future__ import annotations

__all__ = ["TabletrackError", "shorten"]


class TabletrackError(ValueError):
    """Something the user gave is not what the program expects; the message says what to do."""


def shorten(text: object, limit: int = 200) -> str:
    """``text`` made safe to print on one line: control characters escaped, cut to ``limit``.

    A user's file name or field value may hold terminal escapes or be megabytes long; echoing it
    back whole would flood or garble the terminal.
    """
    s = str(text)
    out = "".join(ch if ch.isprintable() else ascii(ch)[1:-1] for ch in s)
    if len(out) > limit:
        out = out[: limit - 1] + "…"
    return out
