"""Referee input: what no camera sees, beside the event log (DESIGN.md, "Inputs that no camera sees").

One format, as a JSON file or as Python values::

    {
      "players": ["Caudron", "Jaspers"],                 # default ["player 1", "player 2"]
      "match": {"distance": 40, "innings_limit": 50, "sets": null},
      "start": {                                         # omit for a new game (the first shot breaks)
        "at_table": "Jaspers", "starter": "Caudron",
        "balls": {"Caudron": "white", "Jaspers": "yellow"},
        "score": {"Caudron": 12, "Jaspers": 9},          # or a list in player order: [12, 9]
        "innings": {"Caudron": 15, "Jaspers": 14},
        "series": 3,                                     # run of the player at the table in this inning
        "high_run": {"Caudron": 4, "Jaspers": 5},
        "next_is_break": false, "equalizing": false,
        "set": 2, "sets_won": {"Caudron": 1, "Jaspers": 0}, "first_set_starter": "Caudron"
      },
      "shots": {                                         # keyed by the event log's shot numbers
        "3": {"foul": "touched_ball", "note": "sleeve touched the red"},
        "7": {"foul": ["push_shot"], "verdict": "point", "detached_masse": true,
              "overrule": ["ball_off_table"], "note": "..."}
      }
    }

Per shot: ``foul`` (a name of :class:`rules.carom.fouls.Foul`, or a list) declared by the referee;
``verdict`` ("point" or "miss"), the referee's decision on the carom when the camera's is in doubt
(002 ART 12.2: the referee's acceptance is final); ``detached_masse``, the referee saw a massé
that left a touching ball without pushing it (002 ART 10.1.3: no foul); ``overrule``, fouls found
in the log that the referee rejects (a false detection); ``note``, free text carried to the call.

Everything is validated at construction: an unknown foul, ball or player name, a shot number that
is not a positive integer, a key that is not in the format, a score at or past the distance, innings
that cannot belong to the player at the table … each raises :class:`RefereeInputError` naming what
was expected and what came. The start is resolved (missing fields derived) by :func:`resolve_start`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import Any

from rules.carom.config import MatchConfig
from rules.carom.fouls import Foul, UnknownFoulError, parse_foul
from rules.carom.state import Equalizing
from rules.core.errors import RefereeInputError
from rules.core.parsing import checked_object as _object
from rules.core.parsing import located as _wrap
from rules.core.parsing import one_or_many, player_pair, read_input_json, shot_entries
from rules.core.parsing import per_player as _per_player_json
from tracking.ids import BallId

__all__ = [
    "DEFAULT_PLAYERS",
    "PLAYER_BALLS",
    "Verdict",
    "ShotInput",
    "StartState",
    "ResolvedStart",
    "MatchSetup",
    "RefereeInput",
    "resolve_start",
    "parse_referee_input",
    "load_referee_input",
    "referee_input_to_dict",
]

DEFAULT_PLAYERS: tuple[str, str] = ("player 1", "player 2")
PLAYER_BALLS: tuple[BallId, BallId] = (BallId.WHITE, BallId.YELLOW)


class Verdict(Enum):
    """The referee's decision on the carom of a shot."""

    POINT = "point"
    MISS = "miss"


def _fouls(value: Any, where: str) -> tuple[Foul, ...]:
    out: list[Foul] = []
    for item in one_or_many(value, where, "a foul name", single=(str, Foul)):
        try:
            out.append(parse_foul(item))
        except UnknownFoulError as e:
            raise RefereeInputError(f"{where}: {e}") from None
    return tuple(out)


@dataclass(frozen=True)
class ShotInput:
    """The referee's input for one shot (see the module docstring). Foul names are accepted as
    strings and become :class:`Foul` members."""

    fouls: tuple[Foul, ...] = ()
    verdict: Verdict | None = None
    detached_masse: bool = False
    overrule: tuple[Foul, ...] = ()
    note: str | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "fouls", _fouls(self.fouls, "shot input foul"))
        object.__setattr__(self, "overrule", _fouls(self.overrule, "shot input overrule"))
        bad = [f.value for f in self.overrule if not f.info.camera]
        if bad:
            cam = ", ".join(f.value for f in Foul if f.info.camera)
            raise RefereeInputError(f"overrule names fouls found in the event log ({cam}), got {', '.join(bad)}")
        if self.verdict is not None and not isinstance(self.verdict, Verdict):
            try:
                object.__setattr__(self, "verdict", Verdict(self.verdict))
            except ValueError:
                raise RefereeInputError(f"verdict must be 'point', 'miss' or null, got {self.verdict!r}") from None
        if not isinstance(self.detached_masse, bool):
            raise RefereeInputError(f"detached_masse must be true or false, got {self.detached_masse!r}")
        if self.note is not None and not isinstance(self.note, str):
            raise RefereeInputError(f"note must be a string, got {self.note!r}")


@dataclass(frozen=True)
class StartState:
    """The state a log starts from when it begins mid-game. Every field is optional; per-player
    fields map player name to value, or are a pair in player order (see :func:`resolve_start` for
    what is derived)."""

    at_table: str | None = None
    starter: str | None = None
    balls: Mapping[str, BallId] | None = None
    score: Mapping[str, int] | None = None
    innings: Mapping[str, int] | None = None
    series: int = 0
    high_run: Mapping[str, int] | None = None
    next_is_break: bool | None = None
    equalizing: bool | None = None
    set_number: int | None = None
    sets_won: Mapping[str, int] | None = None
    first_set_starter: str | None = None


@dataclass(frozen=True)
class ResolvedStart:
    """A :class:`StartState` with every field filled, players as indices."""

    at_table: int
    starter: int
    first_starter: int
    balls: tuple[BallId, BallId]
    balls_given: bool
    score: tuple[int, int]
    innings: tuple[int, int]
    series: int
    in_inning: bool
    high_run: tuple[int, int]
    next_is_break: bool
    equalizing: Equalizing | None
    set_number: int
    sets_won: tuple[int, int]
    fresh: bool


@dataclass(frozen=True)
class MatchSetup:
    """Who plays, how the match ends, and where the log starts (None: a new game)."""

    players: tuple[str, str] = DEFAULT_PLAYERS
    match: MatchConfig = field(default_factory=MatchConfig)
    start: StartState | None = None

    def __post_init__(self) -> None:
        names = self.players
        if (
            not isinstance(names, (list, tuple))
            or len(names) != 2
            or not all(isinstance(n, str) and n.strip() for n in names)
        ):
            raise RefereeInputError(f"players must be two non-empty names, got {names!r}")
        if names[0] == names[1]:
            raise RefereeInputError(f"players must have different names, got {names[0]!r} twice")
        object.__setattr__(self, "players", (names[0], names[1]))
        if not isinstance(self.match, MatchConfig):
            raise RefereeInputError(f"match must be a MatchConfig, got {type(self.match).__name__}")
        resolve_start(self)  # validates the start against the players and the match


@dataclass(frozen=True)
class RefereeInput:
    """The whole referee input: the setup and the per-shot inputs keyed by shot number."""

    setup: MatchSetup = field(default_factory=MatchSetup)
    shots: Mapping[int, ShotInput] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for n in self.shots:
            if isinstance(n, bool) or not isinstance(n, int) or n < 1:
                raise RefereeInputError(f"shot numbers must be positive integers, got {n!r}")

    def for_shot(self, number: int) -> ShotInput | None:
        return self.shots.get(number)


# -- resolving a start ----------------------------------------------------------------------------
def _name_index(name: str | None, names: tuple[str, str], where: str) -> int | None:
    if name is None:
        return None
    if name not in names:
        raise RefereeInputError(f"{where} must be one of the players {', '.join(map(repr, names))}, got {name!r}")
    return names.index(name)


def _starter_of_set(first_starter: int, set_number: int, sets: int | None) -> int:
    """002 ART 14.1.3: sets are started alternately; 14.1.4: the deciding set by who started the first."""
    if sets is not None and set_number == sets:
        return first_starter
    return first_starter if set_number % 2 == 1 else 1 - first_starter


#: How a carom start's per-player numbers may be written (they are also built in Python: tuples and
#: mappings are taken).
_CAROM_PAIR: dict[str, Any] = {"keyed": "keyed by player name", "lists": (list, tuple), "objects": (Mapping,)}


def resolve_start(setup: MatchSetup) -> ResolvedStart:
    """Fill in and check a start. Without one: a new game, player 1 at the table and starting.

    Derived where absent: ``at_table`` = the starter, else player 1; ``starter`` = the player with
    more innings, else (equal innings) the player at the table if he is beginning an inning, his
    opponent if he is mid-inning (``series`` > 0); ``innings`` the fewest consistent with that;
    ``balls`` the starter white, the opponent yellow (002 ART 5.8); ``next_is_break`` true only for
    a game with nothing played yet, or an equalizing inning after the distance; ``set`` one more
    than the sets won; ``first_set_starter`` from alternation (002 ART 14.1.3-4).
    Checked: innings are those of the player at the table (see :mod:`rules.carom.state`), scores below
    the distance, innings within the limit, sets won below the sets needed.
    """
    names, match, s = setup.players, setup.match, setup.start or StartState()
    w = "start"
    if not isinstance(s, StartState):
        raise RefereeInputError(f"start must be a StartState or null, got {type(s).__name__}")
    at_table = _name_index(s.at_table, names, f"{w}.at_table")
    starter = _name_index(s.starter, names, f"{w}.starter")
    first_given = _name_index(s.first_set_starter, names, f"{w}.first_set_starter")
    score = player_pair(s.score, names, f"{w}.score", **_CAROM_PAIR)
    innings = player_pair(s.innings, names, f"{w}.innings", **_CAROM_PAIR)
    high_run = player_pair(s.high_run, names, f"{w}.high_run", **_CAROM_PAIR)
    sets_won = player_pair(s.sets_won, names, f"{w}.sets_won", **_CAROM_PAIR)
    series = s.series
    if isinstance(series, bool) or not isinstance(series, int) or series < 0:
        raise RefereeInputError(f"{w}.series must be a non-negative integer, got {series!r}")
    for key, v in (("next_is_break", s.next_is_break), ("equalizing", s.equalizing)):  # None: derive
        if v is not None and not isinstance(v, bool):
            raise RefereeInputError(f"{w}.{key} must be true or false, got {v!r}")
    in_inning = series > 0
    if at_table is None:
        at_table = starter if starter is not None else 0
    score = score or (0, 0)
    if series > score[at_table]:
        raise RefereeInputError(
            f"{w}.series ({series}) cannot exceed the score of {names[at_table]!r} ({score[at_table]})"
        )
    if starter is None:
        if innings is not None and innings[0] != innings[1]:
            starter = 0 if innings[0] > innings[1] else 1
        else:
            starter = 1 - at_table if in_inning else at_table
    second = 1 - starter
    # the starter has one more inning exactly when he is mid-inning, or the second is about to begin
    expect_diff = 1 if (at_table == starter) == in_inning else 0
    if innings is None:
        innings = (expect_diff, 0) if starter == 0 else (0, expect_diff)
        if at_table == second and in_inning:
            innings = (1, 1)
    diff = innings[starter] - innings[second]
    if diff != expect_diff:
        doing = "in the middle of an inning" if in_inning else "about to begin an inning"
        raise RefereeInputError(
            f"{w}.innings: with {names[at_table]!r} at the table {doing}, {names[starter]!r} (who started the game) "
            f"must have {'one more inning than' if expect_diff else 'as many innings as'} {names[second]!r} "
            f"(002 ART 12.3), got {innings[starter]} and {innings[second]}"
        )
    equalizing: Equalizing | None = None
    if match.distance is not None and score[starter] >= match.distance:
        equalizing = Equalizing.DISTANCE
    elif (
        match.innings_limit is not None
        and innings[starter] >= match.innings_limit
        and not (at_table == starter and in_inning)
    ):
        equalizing = Equalizing.INNINGS_LIMIT
    if s.equalizing is False and equalizing is not None:
        raise RefereeInputError(
            f"{w}.equalizing is false, but {names[starter]!r} (who started) has "
            f"{score[starter]} points in {innings[starter]} innings: the opponent's inning is the equalizing one "
            "(002 ART 12.3, 13.3)"
        )
    if s.equalizing and equalizing is None:
        raise RefereeInputError(
            f"{w}.equalizing: the starter {names[starter]!r} must have reached the distance or the innings "
            f"limit (002 ART 12.3, 13.3), got {score[starter]} points in {innings[starter]} innings"
        )
    if equalizing is not None:
        reached = "distance" if equalizing is Equalizing.DISTANCE else "innings limit"
        if match.sets is not None:
            raise RefereeInputError(
                f"{w}: {names[starter]!r} has reached the distance, which ends the set (002 ART 14.1.1); "
                "a set in play has both scores below it"
            )
        if at_table != second:
            raise RefereeInputError(
                f"{w}: {names[starter]!r} (who started) has reached the {reached}, so the equalizing inning is "
                f"{names[second]!r}'s (002 ART 12.3, 13.3), but at_table is {names[at_table]!r}"
            )
    if match.distance is not None:
        for i in (0, 1):
            limit_ok = equalizing is Equalizing.DISTANCE and i == starter and score[i] == match.distance
            if score[i] >= match.distance and not limit_ok:
                raise RefereeInputError(
                    f"{w}.score.{names[i]}: a game still in play has fewer than the distance ({match.distance}) "
                    f"points, got {score[i]}"
                )
    if match.innings_limit is not None:
        for i in (0, 1):
            if innings[i] > match.innings_limit:
                raise RefereeInputError(
                    f"{w}.innings.{names[i]} must be at most the innings limit ({match.innings_limit}), "
                    f"got {innings[i]}"
                )

    sets_won = sets_won or (0, 0)
    set_number = s.set_number
    if match.sets is None:
        if s.set_number not in (None, 1) or s.sets_won or first_given is not None:
            raise RefereeInputError(f"{w}: set, sets_won and first_set_starter need match.sets, got match.sets null")
        set_number, first_starter = 1, starter
    else:
        need = match.sets // 2 + 1
        for i in (0, 1):
            if sets_won[i] >= need:
                raise RefereeInputError(
                    f"{w}.sets_won.{names[i]}: a match still in play has fewer than {need} sets won, got {sets_won[i]}"
                )
        played = sets_won[0] + sets_won[1] + 1
        if set_number is None:
            set_number = played
        if isinstance(set_number, bool) or not isinstance(set_number, int) or set_number != played:
            raise RefereeInputError(f"{w}.set must be one more than the sets won ({played}), got {set_number!r}")
        derived_first = starter if _starter_of_set(0, set_number, match.sets) == 0 else 1 - starter
        if first_given is not None and _starter_of_set(first_given, set_number, match.sets) != starter:
            due = names[_starter_of_set(first_given, set_number, match.sets)]
            raise RefereeInputError(
                f"{w}.first_set_starter: sets are started alternately and the last by who started the first "
                f"(002 ART 14.1.3-4), so set {set_number} is started by {due!r}, but the starter is {names[starter]!r}"
            )
        first_starter = first_given if first_given is not None else derived_first

    balls_given = s.balls is not None
    if s.balls is not None:
        given = s.balls
        if isinstance(given, (list, tuple)) and len(given) == 2:
            given = {names[0]: given[0], names[1]: given[1]}
        if not isinstance(given, Mapping) or len(given) != 2 or any(k not in names for k in given):
            raise RefereeInputError(
                f"{w}.balls must give the ball of each player ({', '.join(map(repr, names))}), got {given!r}"
            )
        bs = []
        for n in names:
            b = given[n]
            if not isinstance(b, BallId):
                try:
                    b = BallId.parse(b)
                except ValueError as e:
                    raise RefereeInputError(f"{w}.balls.{n}: {e}") from None
            if b not in PLAYER_BALLS:
                raise RefereeInputError(f"{w}.balls.{n}: a player plays the white or the yellow, got {b.value!r}")
            bs.append(b)
        if bs[0] is bs[1]:
            raise RefereeInputError(f"{w}.balls: the players must play different balls, got {bs[0].value!r} twice")
        balls = (bs[0], bs[1])
    else:
        balls = (BallId.WHITE, BallId.YELLOW) if starter == 0 else (BallId.YELLOW, BallId.WHITE)

    fresh = score == (0, 0) and innings == (0, 0) and equalizing is None
    next_is_break = s.next_is_break
    if next_is_break is None:
        next_is_break = fresh or (equalizing is Equalizing.DISTANCE and not in_inning)
    if next_is_break and in_inning:
        raise RefereeInputError(f"{w}.next_is_break: a break begins an inning, but series is {series}")
    hr = list(high_run or (0, 0))
    hr[at_table] = max(hr[at_table], series)
    return ResolvedStart(
        at_table=at_table,
        starter=starter,
        first_starter=first_starter,
        balls=balls,
        balls_given=balls_given,
        score=score,
        innings=innings,
        series=series,
        in_inning=in_inning,
        high_run=(hr[0], hr[1]),
        next_is_break=bool(next_is_break),
        equalizing=equalizing,
        set_number=set_number,
        sets_won=sets_won,
        fresh=fresh,
    )


# -- JSON -----------------------------------------------------------------------------------------
_TOP_KEYS = ("players", "match", "start", "shots")
_MATCH_KEYS = ("distance", "innings_limit", "sets")
_START_KEYS = (
    "at_table",
    "starter",
    "balls",
    "score",
    "innings",
    "series",
    "high_run",
    "next_is_break",
    "equalizing",
    "set",
    "sets_won",
    "first_set_starter",
)
_SHOT_KEYS = ("foul", "verdict", "detached_masse", "overrule", "note")


def parse_referee_input(obj: Any, where: str = "referee input") -> RefereeInput:
    """The :class:`RefereeInput` of a decoded JSON value (see the module docstring)."""
    top = _object(obj, where, _TOP_KEYS)
    names_raw = top.get("players", list(DEFAULT_PLAYERS))
    if not isinstance(names_raw, list):
        raise RefereeInputError(f"{where}: players must be a list of two names, got {names_raw!r}")
    names = tuple(names_raw)
    m = _object(top.get("match") or {}, f"{where}: match", _MATCH_KEYS)
    match = _wrap(where, MatchConfig, **{k: m.get(k) for k in _MATCH_KEYS})
    start = None
    if top.get("start") is not None:
        sj = _object(top["start"], f"{where}: start", _START_KEYS)
        if len(names) == 2:
            per = {
                k: _per_player_json(sj.get(k), names, f"{where}: start.{k}")
                for k in ("balls", "score", "innings", "high_run", "sets_won")
            }
        else:
            per = {}
        for k in ("at_table", "starter", "first_set_starter"):
            if sj.get(k) is not None and not isinstance(sj[k], str):
                raise RefereeInputError(f"{where}: start.{k} must be a player name, got {sj[k]!r}")
        start = StartState(
            at_table=sj.get("at_table"),
            starter=sj.get("starter"),
            balls=per.get("balls"),
            score=per.get("score"),
            innings=per.get("innings"),
            series=sj.get("series", 0),
            high_run=per.get("high_run"),
            next_is_break=sj.get("next_is_break"),
            equalizing=sj.get("equalizing"),
            set_number=sj.get("set"),
            sets_won=per.get("sets_won"),
            first_set_starter=sj.get("first_set_starter"),
        )
    setup = _wrap(where, MatchSetup, players=names, match=match, start=start)
    shots: dict[int, ShotInput] = {}
    for n, key, v in shot_entries(top.get("shots"), where):
        sv = _object(v, f"{where}: shots.{key}", _SHOT_KEYS)
        shots[n] = _wrap(
            f"{where}: shots.{key}",
            ShotInput,
            fouls=sv.get("foul"),
            verdict=sv.get("verdict"),
            detached_masse=sv.get("detached_masse", False),
            overrule=sv.get("overrule") or (),
            note=sv.get("note"),
        )
    return RefereeInput(setup=setup, shots=shots)


def load_referee_input(path: str | Path) -> RefereeInput:
    """Read and validate a carom referee input JSON file; :class:`RefereeInputError` on any fault."""
    return parse_referee_input(read_input_json(path), Path(path).name)


def referee_input_to_dict(ref: RefereeInput) -> dict[str, Any]:
    """The JSON object of a :class:`RefereeInput` (parses back to an equal value)."""
    setup = ref.setup
    d: dict[str, Any] = {
        "players": list(setup.players),
        "match": {
            "distance": setup.match.distance,
            "innings_limit": setup.match.innings_limit,
            "sets": setup.match.sets,
        },
    }
    if setup.start is not None:
        s = setup.start
        sd: dict[str, Any] = {}
        for key, v in (
            ("at_table", s.at_table),
            ("starter", s.starter),
            ("score", s.score),
            ("innings", s.innings),
            ("high_run", s.high_run),
            ("next_is_break", s.next_is_break),
            ("set", s.set_number),
            ("sets_won", s.sets_won),
            ("first_set_starter", s.first_set_starter),
        ):
            if v is not None:
                sd[key] = dict(v) if isinstance(v, Mapping) else v
        if s.balls is not None:
            sd["balls"] = {k: (b.value if isinstance(b, BallId) else b) for k, b in s.balls.items()}
        if s.series:
            sd["series"] = s.series
        if s.equalizing is not None:
            sd["equalizing"] = s.equalizing
        d["start"] = sd
    shots: dict[str, Any] = {}
    for n, si in sorted(ref.shots.items()):
        e: dict[str, Any] = {}
        if si.fouls:
            e["foul"] = [f.value for f in si.fouls]
        if si.verdict is not None:
            e["verdict"] = si.verdict.value
        if si.detached_masse:
            e["detached_masse"] = True
        if si.overrule:
            e["overrule"] = [f.value for f in si.overrule]
        if si.note is not None:
            e["note"] = si.note
        shots[str(n)] = e
    if shots:
        d["shots"] = shots
    return d
