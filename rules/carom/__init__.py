"""Three-cushion and one-cushion (003; 002 ART 26): :mod:`.engine` (``make_engine``), :mod:`.state`,
:mod:`.fouls`, :mod:`.inputs` (referee input), :mod:`.path` (what the cue ball did),
:mod:`.match` (innings, series, end of game and sets), :mod:`.config` (MatchConfig),
:mod:`.sheet` (score sheet). The balk-line games build on these (:mod:`rules.balkline`)."""

__all__: list[str] = []  # the modules are the API: import them by path (engines load lazily)
