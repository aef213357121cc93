"""Words for the calls' reasons: a list of names as a sentence says it.

Contract: :func:`and_list` joins names "a", "a and b", "a, b and c". One place for it, so every
game's reasons and the review's doubts list balls alike.
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["and_list"]


def and_list(words: Sequence[str]) -> str:
    """``words`` (at least one) joined with commas and a last "and"."""
    if not words:
        raise ValueError("and_list: expected at least one word, got none")
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]
