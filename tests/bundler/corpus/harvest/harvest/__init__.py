"""Harvest: ants on a graph of cells, eggs and crystals, beacons chained from the bases.

Run from the directory above the package: ``python -m harvest``.
"""
