"""The repository's own tools; build.py imports tools.build from here."""
