"""The ``belegt`` command line: the outermost layer, wiring settings, stores and graphs."""

from graphs.cli.app import app

__all__ = ["app"]
