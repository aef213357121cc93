"""Judge the pooltool cross-check fixtures with our engines and compare shot by shot (issue 3).

Runs in the project's own python (no pooltool)::

    python tools/xcheck_report.py                  # writes docs/XCHECK_POOLTOOL.md
    python tools/xcheck_report.py --stdout eight-ball

The fixtures (``tests/fixtures/pooltool_xcheck/<game>/``, made by ``tools/xcheck_pooltool.py``)
hold the true events of whole racks played by pooltool and pooltool's verdict of every shot.
Each rack is judged on its own, as a new match whose first player breaks (``referee.json``
``racks``), with the called ball and pocket of ``called.jsonl`` as the referee input (eight-ball),
so that a disagreement in one rack cannot shift every later one. Compared per shot: ``legal``,
``foul`` (any foul or none), ``turn_over``, ``game_over``; in snooker also the points the shooter
scored. Every disagreement is put in a category (:data:`CATEGORIES`) that says which engine follows
the rules documents and why; once the two engines disagree in a rack, later shots of that rack
start from different states (groups, whose turn, balls respotted) and are listed as ``follows``
(consequences of the first). A disagreement no rule explains is ``unexplained`` - the test
``tests/rules/test_xcheck_pooltool.py`` fails on any of those.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

FIXTURES = REPO / "tests" / "fixtures" / "pooltool_xcheck"
GAMES = ("nine-ball", "eight-ball", "snooker")
FIELDS = ("legal", "foul", "turn_over", "game_over")

# category -> (which engine follows the documents, why)
CATEGORIES: dict[str, tuple[str, str]] = {
    "open_table_eight_first": (
        "ours",
        "002 bola 8 ART 8.2: on an open table the cue ball may contact the 8 first (to pocket a solid or "
        "a stripe); pooltool's open table excludes the 8 from the balls that may be hit first.",
    ),
    "illegal_break_option": (
        "ours",
        "002 bola 8 ART 10.1-10.2: a break that pockets nothing and drives fewer than four balls to a "
        "cushion is no foul; the opponent accepts the table or re-racks. pooltool calls it illegal.",
    ),
    "eight_on_break": (
        "ours",
        "002 bola 8 ART 9.1: the 8 on the break neither wins nor loses; the breaker re-racks or has it "
        "respotted and plays on. pooltool ends the game.",
    ),
    "cue_ball_on_legal_break": (
        "ours",
        "002 bola 8 ART 11: the cue ball pocketed on a legal break leaves the balls down and the table "
        "open, ball in hand behind the head string; pooltool calls the break illegal.",
    ),
    "nine_not_respotted": (
        "ours",
        "000 nine-ball 2.6 (and 6.x): the 9 pocketed on a foul is respotted; pooltool leaves it down unless "
        "no ball is left, so its rack goes on without the 9 and ends on another ball.",
    ),
    "three_fouls": (
        "ours",
        "000 nine-ball 6.14: three consecutive fouls lose the rack; pooltool has no three-foul rule.",
    ),
    "break_first_ball": (
        "ours",
        "000 nine-ball 6.2 applies on the break: the 1 must be hit first; pooltool's break test only "
        "asks for a pocketed ball or four balls to a rail.",
    ),
    "free_ball": (
        "ours",
        "002 snooker: after a foul that leaves the player snookered he may nominate a free ball; pooltool "
        "has no free ball.",
    ),
    "snooker_penalty": (
        "ours",
        "002 snooker: the penalty is the value of the ball on or of the ball(s) involved, whichever is "
        "higher, at least 4; pooltool also counts the nominated ball in every case.",
    ),
    "game_end_turn": (
        "both",
        "a convention, not a rule: on the shot that ends the rack pooltool reports turn_over false (its turn "
        "test ignores the end of the game), ours true (the shooter's inning ends with the rack, rules/README). "
        "Both give the rack to the same player.",
    ),
    "loss_not_foul": (
        "ours",
        "002 bola 8 ART 25.1: pocketing the 8 out of turn or in another pocket loses the game; the document "
        "lists it among the ways to lose, not among the fouls. pooltool marks the shot illegal; both end the "
        "rack with the same winner.",
    ),
    "foul_on_final_black": (
        "ours (the document is silent)",
        "002 snooker ART 1.6: the frame ends when the black is potted; nothing ends it on a foul with only the "
        "black left, so ours awards the penalty and play goes on. pooltool ends the frame on any foul on the "
        "final black (as the WPBSA rules do when the scores are not level).",
    ),
    "follows": (
        "-",
        "a consequence of an earlier disagreement in the same rack: the two engines now play from "
        "different states (group, whose turn, balls on the table).",
    ),
}


@dataclass(frozen=True)
class Disagreement:
    game: str
    rack: int
    shot: int
    fields: tuple[str, ...]
    pooltool: dict[str, Any]
    ours: dict[str, Any]
    category: str
    first_in_rack: int | None  # for "follows": the shot whose disagreement it follows


def _read_jsonl(p: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in p.read_text(encoding="utf-8").splitlines() if line.strip()]


def _referee_for_rack(game: str, rack: dict[str, Any], called: dict[int, dict[str, Any]]) -> dict[str, Any]:
    ref: dict[str, Any] = {"players": list(rack["players"])}
    shots = {}
    for n in range(rack["first_shot"], rack["last_shot"] + 1):
        c = called.get(n)
        if c is None:
            continue
        if game == "eight-ball":
            shots[str(n)] = {"called": {"ball": c["ball"], "pocket": c["pocket"]}}
        elif game == "snooker":
            shots[str(n)] = {"called": {"ball": c["ball"]}}
    if shots:
        ref["shots"] = shots
    return ref


def _classify(game: str, pt: dict[str, Any], ours: dict[str, Any], fields: tuple[str, ...]) -> str | None:
    """The category of a first disagreement in a rack, or None when no rule explains it."""
    if game == "eight-ball":
        if pt["break"] and "8" in pt["pocketed"]:
            return "eight_on_break"
        if pt["break"] and pt["foul"] == "illegal_break" and ours["legal"] is not False:
            return "illegal_break_option"
        if pt["break"] and pt["foul"] == "cue_ball_pocketed" and "cue" in pt["pocketed"]:
            return "cue_ball_on_legal_break" if ours.get("foul") in (None, "scratch", "cue_ball_pocketed") else None
        if pt["foul"] == "wrong_ball_first" and pt["first_hit"] == "8" and ours["legal"]:
            return "open_table_eight_first"
    if fields == ("turn_over",) and pt["game_over"] and ours["game_over"] and ours["turn_over"]:
        return "game_end_turn"
    if (
        game == "eight-ball"
        and pt["foul"] == "eight_ball_pocketed_illegally"
        and ours["game_over"]
        and pt["game_over"]
        and "25" in ours["reason"]
    ):
        return "loss_not_foul"
    if (
        game == "snooker"
        and pt["game_over"]
        and not pt["legal"]
        and not ours["game_over"]
        and (pt.get("called") or {}).get("ball") == "black"
        and "black" not in pt["pocketed"]
    ):
        return "foul_on_final_black"
    if game == "nine-ball":
        if pt["game_over"] and not ours["game_over"] and "9" not in pt["pocketed"]:
            return "nine_not_respotted"
        if pt["break"] and pt["first_hit"] != "1" and not ours["legal"] and pt["legal"]:
            return "break_first_ball"
        if (
            ours.get("game_over")
            and not pt["game_over"]
            and ours.get("foul")
            and "three" in str(ours.get("reason", "")).lower()
        ):
            return "three_fouls"
    return None


def compare_game(game: str, folder: Path = FIXTURES) -> dict[str, Any]:
    """Judge every rack of ``game``'s fixture with our engine; counts and disagreements."""
    from rules import judge_events
    from rules.core.call import call_to_dict
    from tracking.eventlog import read_events

    d = folder / game
    events = read_events(d / "events.jsonl")
    verdicts = {v["shot"]: v for v in _read_jsonl(d / "pooltool_verdicts.jsonl")}
    called = {c["shot"]: c for c in _read_jsonl(d / "called.jsonl")}
    ref = json.loads((d / "referee.json").read_text(encoding="utf-8"))
    agree: Counter[str] = Counter()
    total = 0
    disagreements: list[Disagreement] = []
    errors: list[str] = []
    for rack in ref["racks"]:
        lo, hi = rack["first_shot"], rack["last_shot"]
        evs = [e for e in events if lo <= e.shot <= hi]
        try:
            calls, _ = judge_events(evs, game, _referee_for_rack(game, rack, called))
        except ValueError as e:
            errors.append(f"rack {rack['rack']} (shots {lo}-{hi}): {e}")
            continue
        first: int | None = None
        for c in calls:
            o = call_to_dict(c)
            p = verdicts[o["shot"]]
            total += 1
            mine = {
                "legal": bool(o["legal"]),
                "foul": o["foul"] is not None,
                "turn_over": bool(o["turn_over"]),
                "game_over": bool(o["game_over"]),
            }
            theirs = {
                "legal": p["legal"],
                "foul": p["foul"] is not None,
                "turn_over": p["turn_over"],
                "game_over": p["game_over"],
            }
            diff = tuple(f for f in FIELDS if mine[f] != theirs[f])
            for f in FIELDS:
                agree[f] += f not in diff
            if not diff:
                continue
            ours_brief = {
                "legal": o["legal"],
                "foul": o["foul"],
                "turn_over": o["turn_over"],
                "game_over": o["game_over"],
                "reason": o["reason"],
            }
            pt_brief = {
                k: p[k]
                for k in (
                    "legal",
                    "foul",
                    "reason",
                    "turn_over",
                    "game_over",
                    "first_hit",
                    "pocketed",
                    "break",
                    "player",
                    "intent",
                    "called",
                )
            }
            if first is None:
                cat = _classify(game, p, ours_brief, diff) or "unexplained"
                first = o["shot"]
                disagreements.append(Disagreement(game, rack["rack"], o["shot"], diff, pt_brief, ours_brief, cat, None))
            else:
                disagreements.append(
                    Disagreement(game, rack["rack"], o["shot"], diff, pt_brief, ours_brief, "follows", first)
                )
    return {
        "game": game,
        "shots": total,
        "agree": dict(agree),
        "disagreements": disagreements,
        "errors": errors,
        "racks": len(ref["racks"]),
    }


def _md_game(res: dict[str, Any]) -> list[str]:
    g, n = res["game"], res["shots"]
    out = [f"## {g}", ""]
    if res.get("missing"):
        out += [f"Not judged: {res['missing']}", ""]
        return out
    out.append(f"{n} shots judged in {res['racks']} racks.")
    out.append("")
    out.append("| field | agree | of |")
    out.append("| --- | --- | --- |")
    for f in FIELDS:
        out.append(f"| {f} | {res['agree'].get(f, 0)} | {n} |")
    cats = Counter(x.category for x in res["disagreements"])
    out += [
        "",
        "Disagreeing shots by category: " + (", ".join(f"{k} {v}" for k, v in sorted(cats.items())) or "none"),
        "",
    ]
    for e in res["errors"]:
        out.append(f"- engine error: {e}")
    if res["disagreements"]:
        out += ["| shot | rack | fields | pooltool | ours | category |", "| --- | --- | --- | --- | --- | --- |"]
        for x in res["disagreements"]:
            p, o = x.pooltool, x.ours
            pt_s = (
                f"{'legal' if p['legal'] else 'FOUL ' + str(p['foul'])}, turn over {p['turn_over']}, game over "
                f"{p['game_over']}; first {p['first_hit']}, pocketed {','.join(p['pocketed']) or '-'}"
                + (f", called {p['called']['ball']} {p['called']['pocket']}" if p.get("called") else "")
            )
            our_s = f"{'legal' if o['legal'] else 'FOUL ' + str(o['foul'])}: {o['reason']}".replace("|", "/")
            cat = x.category + (f" (of shot {x.first_in_rack})" if x.first_in_rack else "")
            out.append(f"| {x.shot} | {x.rack} | {', '.join(x.fields)} | {pt_s} | {our_s} | {cat} |")
        out.append("")
    return out


def render(results: list[dict[str, Any]]) -> str:
    lines = [
        "# Cross-check against pooltool's rulesets",
        "",
        "Made by `python tools/xcheck_report.py` from the fixtures of `tools/xcheck_pooltool.py`",
        "(pooltool 0.6.0 plays whole racks with automatic players; its ruleset judges each shot). Each rack",
        "is judged by our engine as a new match with the same breaker; eight-ball calls come from the",
        "players' intent (`called.jsonl`). A disagreement's category says which engine follows the rules",
        "documents; `follows` marks later shots of a rack that start from a state the first disagreement",
        "already changed.",
        "",
        "## Categories",
        "",
        "| category | follows the documents | why |",
        "| --- | --- | --- |",
    ]
    for k, (who, why) in CATEGORIES.items():
        lines.append(f"| {k} | {who} | {why} |")
    lines.append("| unexplained | ? | no rule explains it: a bug in one engine, to be looked at |")
    lines.append("")
    for r in results:
        lines += _md_game(r)
    return "\n".join(lines) + "\n"


def run(games: list[str], folder: Path = FIXTURES) -> list[dict[str, Any]]:
    from rules.core.games import parse_game

    out = []
    for g in games:
        try:
            parse_game(g)
            from rules.core.engine import engine_for

            engine_for(parse_game(g))
        except (ValueError, ImportError, KeyError) as e:
            out.append({"game": g, "missing": f"our {g} engine is not available ({e})", "shots": 0})
            continue
        out.append(compare_game(g, folder))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("games", nargs="*", default=list(GAMES))
    ap.add_argument("--out", type=Path, default=REPO / "docs" / "XCHECK_POOLTOOL.md")
    ap.add_argument("--stdout", action="store_true", help="print instead of writing the file")
    args = ap.parse_args(argv)
    text = render(run(args.games))
    if args.stdout:
        print(text)
    else:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(text, encoding="utf-8")
        print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
