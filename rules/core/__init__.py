"""What every game's rules share; no game's own rule lives here.

:mod:`.games` (Game, Family, parse_game), :mod:`.engine` (the ``Engine[StateT, InputT]`` protocol
and the registry of engines by game), :mod:`.call` (Call and ``calls.jsonl``), :mod:`.errors`,
:mod:`.config` (JudgeConfig), :mod:`.evidence` (needs_review), :mod:`.parsing` (referee-input
parsing helpers: one copy for every game), :mod:`.inputs` (reading any game's referee input),
:mod:`.fouls` (FoulInfo: a foul found with its articles), :mod:`.after_match` (the call of a shot
played after the match is over), :mod:`.judge` (judging a whole log), :mod:`.opening` (is the
first shot a break?), :mod:`.table` (the table's spots, from the table spec), :mod:`.pool_shot`
(what a pool or snooker shot did), :mod:`.racks` (race to N racks), :mod:`.report` (the calls
table). Nothing here imports a family package except :mod:`.engine`, lazily, by module path.
"""

__all__: list[str] = []  # the modules are the API: import them by path (engines load lazily)
