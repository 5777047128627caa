"""Connect Four bot: numpy board, vectorised evaluation, negamax with alpha-beta.

Run from the directory above the package: ``python -m c4bot``.
"""
