"""Potion brewing bot: beam search over casts, rests and brews.

Run from the directory above the package: ``python -m brewer``.
"""

__version__ = "0.3"
