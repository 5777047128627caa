"""Spring Challenge 2021 ("Photosynthesis"): hex board, trees, sun and shadows."""

from .referee import Spring2021Referee

__all__ = ["Spring2021Referee"]
