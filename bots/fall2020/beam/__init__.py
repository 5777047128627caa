"""Fall Challenge 2020 beam search bot (Agade-style): see :mod:`.search` and :mod:`.evaluation`."""
