"""tabletrack: officiating billiards from an overhead camera (the app package: CLI, pipeline, outputs)."""

__version__ = "0.1.0"
