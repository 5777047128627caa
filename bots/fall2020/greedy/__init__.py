"""Fall Challenge 2020 greedy bot (one ply, deterministic): see :mod:`.policy`."""
