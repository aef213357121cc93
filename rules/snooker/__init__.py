"""Snooker (002 "Reglamento snooker", ART 1-2, and the overview's paragraph on snooker).

Modules: :mod:`.balls` (ball values, the ball on), :mod:`.spots` (the colours' spots and where a
colour is respotted: the only geometry of the engine), :mod:`.fouls` (ART 2.2's fouls and their
penalties), :mod:`.state` (the frozen match state), :mod:`.inputs` (referee input),
:mod:`.decide` (the pure verdict of one shot), :mod:`.engine` (``make_engine``: shots → calls and
the next state), :mod:`.sheet` (score sheet). See README.md beside this file.
"""

__all__: list[str] = []  # the modules are the API: import them by path (engines load lazily)
