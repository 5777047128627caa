"""CodinGame's "Monte Carlo Tree Search exercise": build a UCT tree from given playouts and read
the line UCB1 chooses (run it with ``python -m bots.puzzles.mcts_exercise``)."""
