"""The nine-ball family: nine-ball (000; 002 "Reglamento bola 9") and the variants of 002's
overview that follow its rules with another rack (six-, seven- and ten-ball) or score the balls by
number (rotation).

Modules: :mod:`.variants` (what differs between the games), :mod:`.fouls` (:class:`PoolFoul`),
:mod:`.state` (:class:`NineBallState`, :class:`RackResult`), :mod:`.inputs` (referee input),
:mod:`.decide` (the pure verdict of one shot), :mod:`.match` (racks, three fouls, race, break
order), :mod:`.sheet` (score sheet), :mod:`.engine` (``make_engine``). See README.md.
"""

__all__: list[str] = []  # the modules are the API: import them by path (engines load lazily)
