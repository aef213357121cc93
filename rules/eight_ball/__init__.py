"""Eight-ball (002, Reglamento bola 8): the engine, its state, fouls and referee input.

``make_engine(Game.EIGHT_BALL, JudgeConfig())`` (or ``rules.engine_for("eight-ball")``) gives the
engine; README.md in this folder documents the referee input, the citation style and the readings
of the regulation."""

__all__: list[str] = []  # the modules are the API: import them by path (engines load lazily)
