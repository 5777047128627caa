"""Read the puzzle's input from stdin, print the chosen line of moves."""

import sys

from bots.puzzles.mcts_exercise.solver import solve_text

print(solve_text(sys.stdin.read()))
