"""ownmod.py -- a module of own.py's program."""
import ensemble


def exchange(n):
    """Send n messages."""
    for _ in range(n):
        ensemble.send("Out", 1, b"x")
