"""14.1 continuous (straight pool), 004: the engine (:mod:`.engine`, ``make_engine``), its state
(:mod:`.state`), fouls (:mod:`.fouls`), referee input (:mod:`.inputs`), the shot decision
(:mod:`.decide`), the match bookkeeping (:mod:`.match`), the head string and spots (:mod:`.table`)
and the score sheet (:mod:`.sheet`). See README.md here for the referee input and the articles."""

__all__: list[str] = []  # the modules are the API: import them by path (engines load lazily)
