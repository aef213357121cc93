"""rules/core/words.py: a list of names as the calls' reasons say it (every game's "pots 1, 3 and
5", the review's "the 7, the 8 and the cue")."""

from __future__ import annotations

import pytest

from rules.core.words import and_list


@pytest.mark.parametrize(
    ("words", "said"),
    [
        (["the cue"], "the cue"),
        (["1", "3"], "1 and 3"),
        (["the 7", "the 8", "the cue"], "the 7, the 8 and the cue"),
    ],
)
def test_and_list(words: list[str], said: str) -> None:
    assert and_list(words) == said


def test_no_words_is_refused() -> None:
    with pytest.raises(ValueError, match="at least one word"):
        and_list([])
