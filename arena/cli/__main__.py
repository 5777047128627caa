"""``python -m arena.cli``."""

from .main import main

main()
