"""``python -m cli``: the ``arena`` command."""

from .arena import main

main()
