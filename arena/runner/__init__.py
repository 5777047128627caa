"""Playing many games: one game as plain data (:mod:`.task`) played by worker processes on this
machine (:mod:`.executor`, :mod:`.worker`) or on a Dask cluster (:mod:`.dask_executor`,
:mod:`.dask_worker`, with the bots shipped by :mod:`.shipping`), and the bots that fail
(:mod:`.failures`)."""
