"""The decision makers, re-exported: ``from brewer.ai import beam_search, evaluate``."""

from .beam import DEPTH, beam_search
from .greedy import greedy_move
from .heuristics import evaluate

__all__ = ["DEPTH", "beam_search", "evaluate", "greedy_move"]
