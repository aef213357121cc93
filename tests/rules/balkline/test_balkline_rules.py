"""Libre and the balk-line games (002 ART 19-24), pentathlon and triathlon (002 ART 28-30)."""

from __future__ import annotations

import pytest

from rules import Game, engine_for, judge_events
from rules.balkline.zones import LINE_TOLERANCE_MM, zones_for, zones_holding
from rules.carom.fouls import Foul
from rules.core.errors import RefereeInputError
from tracking.events import BallBall, CushionHit, ShotEnd, ShotStart
from tracking.ids import BallId, Cushion

W, Y, R = BallId.WHITE, BallId.YELLOW, BallId.RED
L_MM, W_MM = 2840.0, 1420.0


def shot(n, before, after, tokens=("yellow", "red"), cue=W, t0=None, cushions=()):
    """One shot: positions before/after ({ball: (x, y)}), the cue ball's contacts in order, and
    object-ball cushion contacts [(ball, cushion, pos)]."""
    t = 10.0 * (n - 1) if t0 is None else t0
    evs = [ShotStart(t, int(t * 30), n, 0.99, cue, dict(before))]
    for i, tok in enumerate(tokens, start=1):
        evs.append(BallBall(t + 0.2 * i, int((t + 0.2 * i) * 30), n, 0.95, (cue, BallId.parse(tok)), (0.0, 0.0)))
    for j, (b, c, p) in enumerate(cushions, start=1):
        tt = t + 0.1 + 0.2 * len(tokens) + 0.05 * j
        evs.append(CushionHit(tt, int(tt * 30), n, 0.95, b, Cushion.parse(c), p))
    evs.append(ShotEnd(t + 3.0, int((t + 3.0) * 30), n, 0.99, dict(after)))
    return sorted(evs, key=lambda e: (e.kind.value != "shot_start", e.kind.value == "shot_end", e.t_s))


def judge_seq(game, shots, referee=None):
    evs = [e for s in shots for e in s]
    return judge_events(evs, game, referee if referee is not None else {"start": {"next_is_break": False}})


OUT = {W: (1400.0, 300.0), Y: (1500.0, 1100.0), R: (600.0, 720.0)}  # no two balls share a zone in any game
CORNER = {W: (900.0, 400.0), Y: (120.0, 60.0), R: (200.0, 40.0)}  # both object balls in the head-right corner (libre)
SQUARE = {W: (900.0, 700.0), Y: (200.0, 200.0), R: (300.0, 150.0)}  # both in the head-right 47 cm square


# -- the zones as data ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    "game,count,kinds",
    [
        (Game.LIBRE, 4, {"corner"}),  # ART 21.2: the four corners
        (Game.BALKLINE_47_2, 17, {"cuadro", "anchor"}),  # ART 22.1-22.3: nine zones and eight anchors
        (Game.BALKLINE_47_1, 17, {"cuadro", "anchor"}),  # ART 23.1: the same marking
        (Game.BALKLINE_71_2, 12, {"cuadro", "anchor"}),  # ART 24.1-24.2: six zones, six anchors
        (Game.THREE_CUSHION, 0, set()),  # ART 25.2: no zones in the cushion games
    ],
)
def test_002_art_19_to_24_zones(game, count, kinds):
    zs = zones_for(game)
    assert len(zs) == count and {z.kind for z in zs} == kinds


@pytest.mark.parametrize(
    "art,game,point,inside",
    [
        ("21.2-corner", Game.LIBRE, (100.0, 100.0), ["corner_head_right"]),
        ("21.2-outside-the-cut", Game.LIBRE, (400.0, 200.0), []),
        ("21.2-other-corner", Game.LIBRE, (L_MM - 50.0, W_MM - 50.0), ["corner_foot_left"]),
        ("22.1-square", Game.BALKLINE_47_2, (100.0, 100.0), ["head_right"]),
        ("22.1-centre", Game.BALKLINE_47_2, (1420.0, 710.0), ["centre_middle"]),
        ("22.3-anchor", Game.BALKLINE_47_2, (470.0, 50.0), ["head_right", "centre_right", "anchor_x470_right"]),
        ("24.1-71-square", Game.BALKLINE_71_2, (300.0, 300.0), ["head_right"]),
        ("24.1-71-rectangle", Game.BALKLINE_71_2, (1420.0, 1000.0), ["centre_left"]),
    ],
)
def test_002_art_zone_membership(art, game, point, inside):
    names = [z.name for z in zones_for(game) if z.holds(point)]
    assert sorted(names) == sorted(inside), art


def test_002_art_20_3_ball_on_a_line_counts_in_both_zones():
    zs = zones_for(Game.BALKLINE_47_2)
    on_line = (470.0 + LINE_TOLERANCE_MM / 2, 700.0)
    names = {z.name for z in zs if z.holds(on_line)}
    assert {"head_middle", "centre_middle"} <= names
    # a ball on the line and a ball in either zone are "entran" in it
    assert {z.name for z in zones_holding(zs, on_line, (200.0, 700.0))} == {"head_middle"}
    assert {z.name for z in zones_holding(zs, on_line, (800.0, 700.0))} == {"centre_middle"}


# -- the carom of libre and the balk-line games ----------------------------------------------------
@pytest.mark.parametrize("game", ["libre", "balkline-47-2", "balkline-47-1", "balkline-71-2"])
def test_002_art_7_2_carom_needs_no_cushion(game):
    calls, st = judge_seq(game, [shot(1, OUT, OUT)])
    assert calls[0].points == 1 and calls[0].legal and not calls[0].turn_over
    assert "002 ART 7.2" in calls[0].reason


@pytest.mark.parametrize("game", ["libre", "balkline-71-2"])
def test_002_art_7_2_one_ball_is_a_miss(game):
    calls, _ = judge_seq(game, [shot(1, OUT, OUT, tokens=("yellow",))])
    assert calls[0].points == 0 and calls[0].turn_over and calls[0].legal


# -- entran, dentro and the foul ------------------------------------------------------------------
@pytest.mark.parametrize(
    "art,game,before,n_legal",
    [
        ("21.3-libre-two-caroms", "libre", CORNER, 1),  # entran: one carom staying (dentro), the next must drive out
        ("22.4-47/2-two-caroms", "balkline-47-2", SQUARE, 1),
        ("23.2-47/1-dentro-at-once", "balkline-47-1", SQUARE, 0),  # dentro at once: the first carom must drive out
        ("24.3-71/2-two-caroms", "balkline-71-2", {W: (1400.0, 700.0), Y: (200.0, 200.0), R: (300.0, 150.0)}, 1),
    ],
)
def test_002_art_20_5_carom_from_dentro_without_a_ball_out_is_a_foul(art, game, before, n_legal):
    shots = [shot(i, before, before) for i in range(1, 4)]
    calls, st = judge_seq(game, shots)
    for c in calls[:n_legal]:
        assert c.points == 1 and c.legal, art
    foul = calls[n_legal]
    assert foul.foul is Foul.BALK_ZONE and foul.points == 0 and foul.turn_over, art
    assert "002 ART 20.5" in foul.reason


def test_002_art_20_1_positions_reported_for_the_next_stroke():
    calls, _ = judge_seq("libre", [shot(1, OUT, CORNER), shot(2, CORNER, CORNER)])
    assert calls[0].details["zones"][0]["position"] == "entran"
    assert calls[1].details["zones"][0]["position"] == "dentro"
    assert "'dentro' in corner_head_right" in calls[1].reason


def test_002_art_20_4_balls_that_leave_and_return_are_entran_again():
    # carom 1 from entran stays (dentro); carom 2 drives the red out (legal); carom 3 brings it back: entran
    back = {W: (900.0, 400.0), Y: (120.0, 60.0), R: (200.0, 40.0)}
    out = {W: (900.0, 400.0), Y: (120.0, 60.0), R: (900.0, 700.0)}
    calls, _ = judge_seq(
        "libre", [shot(1, CORNER, CORNER), shot(2, CORNER, out), shot(3, out, back), shot(4, back, back)]
    )
    assert [c.points for c in calls] == [1, 1, 1, 1] and all(c.legal for c in calls)
    assert calls[2].details["zones"][0]["position"] == "entran"


def test_002_art_20_5_a_ball_seen_outside_during_the_shot_has_left():
    # the red's cushion contact on the foot cushion shows it left the corner, though it came back
    shots = [shot(1, CORNER, CORNER), shot(2, CORNER, CORNER, cushions=[(R, "foot", (2809.0, 500.0))])]
    calls, _ = judge_seq("libre", shots)
    assert calls[1].legal and calls[1].points == 1


def test_002_art_19_2_the_count_belongs_to_the_series():
    # a miss ends the series; the opponent (yellow) finds the white and red in the corner: entran for him
    corner_for_yellow = {W: (120.0, 60.0), Y: (900.0, 400.0), R: (200.0, 40.0)}
    shots = [
        shot(1, CORNER, CORNER),
        shot(2, CORNER, corner_for_yellow, tokens=("yellow",)),
        shot(3, corner_for_yellow, corner_for_yellow, tokens=("white", "red"), cue=Y),
    ]
    calls, _ = judge_seq("libre", shots, {"start": {"next_is_break": False, "balls": ["white", "yellow"]}})
    assert calls[1].turn_over and calls[2].legal and calls[2].points == 1


def test_002_art_20_3_a_ball_near_a_line_needs_review():
    near = {W: (900.0, 700.0), Y: (200.0, 200.0), R: (468.5, 150.0)}  # the red 1.5 mm from the 47 cm line
    calls, _ = judge_seq("balkline-47-1", [shot(1, near, near)])
    assert calls[0].foul is Foul.BALK_ZONE and calls[0].needs_review and "002 ART 20.3" in calls[0].review_reason


def test_002_art_20_2_a_caballo_is_reported():
    astride = {W: (1400.0, 700.0), Y: (460.0, 200.0), R: (480.0, 200.0)}
    calls, _ = judge_seq("balkline-47-2", [shot(1, OUT, astride)])
    assert calls[0].details["a_caballo"] is True and "a caballo" in calls[0].reason


def test_referee_input_table_size():
    engine = engine_for("libre")
    ref = engine.parse_input({"match": {"table_mm": [2540, 1270], "distance": 50}})
    st = engine.initial_state(ref.setup)
    assert max(x for z in st.zones for x, _ in z.corners_mm) == 2540.0
    with pytest.raises(RefereeInputError, match="match.table_mm must be"):
        engine.parse_input({"match": {"table_mm": [1000]}})


# -- pentathlon and triathlon -------------------------------------------------------------------------
@pytest.mark.parametrize(
    "game,order",
    [
        ("pentathlon", ["libre", "balkline-47-1", "balkline-71-2", "one-cushion", "three-cushion"]),  # ART 29
        ("triathlon", ["balkline-71-2", "one-cushion", "three-cushion"]),  # ART 30
    ],
)
def test_002_art_28_to_30_modalities_in_order(game, order):
    """Each modality to a distance of 1: the starter scores, the opponent misses his equalizing
    inning (002 ART 12.3), and the next modality begins with the other player starting."""
    engine = engine_for(game)
    ref = engine.parse_input({"match": {"distances": dict.fromkeys(order, 1)}})
    state = engine.initial_state(ref.setup)
    seen, n = [], 1
    from tracking.events import group_shots

    for g in order:
        for scores in (True, False):
            cue = _carom_state(state).player.ball
            other = "yellow" if cue is W else "white"
            cush = {"one-cushion": ["foot"], "three-cushion": ["foot", "left", "head"]}.get(g, []) if scores else []
            evs = shot(n, OUT, OUT, cue=cue, tokens=("red",))  # a modality opens with a break: red first (ART 6.2)
            extra = [
                CushionHit(evs[0].t_s + 0.3 + 0.01 * i, 0, n, 0.95, cue, Cushion.parse(c), (0.0, 0.0))
                for i, c in enumerate(cush)
            ]
            if scores:
                extra.append(BallBall(evs[0].t_s + 0.5, 0, n, 0.95, (cue, BallId.parse(other)), (0.0, 0.0)))
            (s_,) = group_shots(evs + extra)
            call, state = engine.judge_shot(state, s_, None)
            seen.append(call.details["modality"])
            assert call.points == (1 if scores else 0), (g, call.reason)
            n += 1
    assert seen == [g for g in order for _ in (0, 1)]
    assert call.match_over and call.winner is not None
    sheet = engine.score_sheet(state)
    assert [r["modality"] for r in sheet["results"]] == order and sheet["match_over"]
    assert "002 ART" in call.reason and game in engine.format_score_sheet(state)


def _carom_state(state):
    cur = state.current
    return getattr(cur, "carom", cur)


def test_002_art_28_distances_must_name_modalities():
    with pytest.raises(RefereeInputError, match="snooker is not a modality of triathlon"):
        engine_for("triathlon").parse_input({"match": {"distances": {"snooker": 10}}})
    with pytest.raises(RefereeInputError, match="match.distances"):
        engine_for("pentathlon").parse_input({"match": {"distance": 10}})
