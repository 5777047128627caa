"""What the stored games say: the ranking of bots (one model for tournaments and ladders),
a tournament's standings, the health of its bots and workers, and how its figures moved as
its games came in.

Below tournaments and ladders (it reads the results database, never plays): both import it,
it imports neither.
"""
