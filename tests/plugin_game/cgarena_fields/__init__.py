"""A three-player test game for the arena's plugin interface (see ../README.md)."""
