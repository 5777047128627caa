"""Read the puzzle's input from stdin, print the chosen line."""

import sys

from bots.puzzles.mcts_exercise.solver import parse, solve

c, playouts = parse(line for line in sys.stdin.read().splitlines() if line.strip())
print(solve(c, playouts))
