"""What every stage shares and nothing else: the project's error root.

Contract: imports nothing of the project and no third-party package, so every stage (vision,
calibration, tracking, rules, models, synth, the app) may import it without pulling anything in.
"""

from common.errors import TabletrackError, shorten

__all__ = ["TabletrackError", "shorten"]
