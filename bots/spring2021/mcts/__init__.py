"""Spring Challenge 2021 MCTS bot (run it with ``python -m bots.spring2021.mcts``)."""
