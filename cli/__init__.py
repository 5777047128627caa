"""The command layer: the ``arena`` and ``bundle`` command lines.

It sits above everything else: it may import :mod:`arena`, :mod:`bundler` and :mod:`referee`,
nothing imports it, and it is the only place that prints. Each command parses its options, calls
one library function and renders what that returns; the command layer also wires the layers
together (it hands the Dask executor the function that bundles a Python bot).
"""
