"""Property tests of the tracks CSV reader (tracking/tracks_csv.py): a random valid file reads with
every sample; a mutated one is read or refused with TracksCsvError in one line, never another
exception."""

from __future__ import annotations

import io

from hypothesis import given
from hypothesis import strategies as st
from hypothesis_inputs import FAST, mutated

from common.errors import TabletrackError
from tracking.ids import BallId
from tracking.tracks_csv import parse_tracks_csv


@st.composite
def tracks_csv(draw: st.DrawFn) -> tuple[str, int]:
    """A CSV with the required columns (and maybe frame, observed, a BOM, CRLF) and its row count."""
    balls = draw(st.lists(st.sampled_from(list(BallId)), min_size=1, max_size=4, unique=True))
    extra = draw(st.sampled_from(((), ("frame",), ("frame", "observed"))))
    cols = draw(st.permutations(["t", "ball", "x_mm", "y_mm", *extra]))
    nl = draw(st.sampled_from(["\n", "\r\n"]))
    rows = [",".join(cols)]
    n = draw(st.integers(min_value=1, max_value=30))
    for i in range(n):
        b = balls[i % len(balls)]
        values = {
            "t": f"{i * 0.02:.3f}",
            "ball": b.value,
            "x_mm": repr(draw(st.floats(min_value=-100, max_value=3000))),
            "y_mm": repr(draw(st.floats(min_value=-100, max_value=1500))),
            "frame": str(i),
            "observed": draw(st.sampled_from(["1", "0", "true", "false"])),
        }
        rows.append(",".join(values[c] for c in cols))
    bom = draw(st.sampled_from(["", "\ufeff"]))
    return bom + nl.join(rows) + nl, n


@FAST
@given(tracks_csv())
def test_a_valid_tracks_file_reads_every_sample(case: tuple[str, int]) -> None:
    text, n = case
    trajectories = parse_tracks_csv(io.StringIO(text, newline=""), "tracks.csv")
    assert sum(len(t) for t in trajectories.values()) == n


@FAST
@given(st.data())
def test_a_mutated_tracks_file_is_read_or_refused(data: st.DataObject) -> None:
    text = data.draw(mutated(data.draw(tracks_csv())[0]))
    try:
        parse_tracks_csv(io.StringIO(text, newline=""), "tracks.csv")
    except TabletrackError as e:
        assert "\n" not in str(e)
