"""Fall Challenge 2020 bots (each file runs on its own on CodinGame)."""
