"""A fast Fall Challenge 2020 model shared by the Fall bots (beam, greedy, bfs).

* :mod:`.inventory` numbers the 1001 possible inventories and turns spells, orders and learning
  into lookup tables over those numbers;
* :mod:`.model` holds a position (:class:`~.model.Table` of the root's cards, immutable
  :class:`~.model.State`), lists legal actions and applies a turn of both witches exactly as the
  referee does, the cards dealt later being unknown (absent);
* :mod:`.io` reads the exact CodinGame input (keeping the turn and the potions brewed, which the
  input does not give) and formats commands.

Nothing here imports the toolkit's referee or arena: a bot must bundle into one file.

Typical use::

    tracker = Tracker()
    position = tracker.position(read_lines(input))      # Position(table, state)
    actions = legal_actions(position.table, position.state, 0)
    after = step(position.table, position.state, actions[0], REST)   # both witches act
    print(format_action(position, actions[0]), flush=True)
"""
