"""Spring Challenge 2021 bots (each file runs on its own on CodinGame)."""
