"""Solutions to CodinGame puzzles that exercise the bots library."""
