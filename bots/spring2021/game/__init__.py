"""A fast Spring Challenge 2021 model for search bots: bitboards over the hex board.

``board`` turns the cell list of the first input into a bit layout where every sun direction is
a plain shift; ``state`` holds a position in a few Python ints and applies actions and days;
``shadows`` computes shadows and sun income with shifts; ``io`` reads the exact CodinGame input
and formats actions. Nothing here imports the toolkit's referee: a bot must bundle on its own.
"""
