"""The carom games with limited zones (002 ART 19-24: libre, cuadro 47/2, 47/1, 71/2) and the
multi-game events made of them (002 ART 28-30: pentathlon, triathlon). See README.md."""

__all__: list[str] = []  # the modules are the API: import them by path (engines load lazily)
