"""Event inference at a rack: the blow a resting chain of balls passes on does not hide the
contact that struck it (``InferenceConfig.chain_gap_mm``, pass 4 of
:mod:`tracking.infer.contacts`)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from calibration.table import load_table
from tracking.events import BallBall
from tracking.ids import BallId
from tracking.infer import InferenceConfig, infer_events
from tracking.tracks_csv import read_tracks_csv

TABLE = load_table("pool")
#: tracks.csv (0-0.44 s) that ``analyze`` made of the real nine-ball broadcast break
#: 2019_PoolChamp_Clip12 darkened (bench/real_variants.py) with a classifier trained at another
#: seed: the cue ball meets the 1 at the rack's apex at ~0.155 s; the apex's contacts with the
#: balls behind it come out of their rest runs 4 ms before and 5 ms after (0.1515 and 0.1605 s,
#: the latter on the 1's next sample), which left the 1's fits no samples
RACK = Path(__file__).parent / "data" / "clip12_dark_break.tracks.csv"


def _first_contacts(cfg: InferenceConfig) -> list[frozenset[BallId]]:
    events = infer_events(read_tracks_csv(RACK), TABLE, cfg)
    return [frozenset(e.balls) for e in events if isinstance(e, BallBall)]


def test_the_cue_balls_contact_with_the_apex_is_found_and_first() -> None:
    """Nine-ball 000 2.3 and 6.2: the break's legality turns on the ball the cue ball hits first;
    the rack's own contacts are passed on from that one and come after it."""
    contacts = _first_contacts(InferenceConfig())
    cue = frozenset({BallId("cue"), BallId("1")})
    assert cue in contacts
    assert contacts[0] == cue


def test_without_the_chain_rule_the_contact_is_lost() -> None:
    """The case above needs the rule: with no pair counted as a resting chain the cue ball's
    contact is lost (the failure the rule mends), so the test above can fail."""
    contacts = _first_contacts(replace(InferenceConfig(), chain_gap_mm=-1000.0))
    assert not any(BallId("cue") in pair for pair in contacts)
