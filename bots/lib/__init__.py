"""Shared pieces of the reference bots: turn limits, Zobrist hashing, beam search, BFS, MCTS."""
