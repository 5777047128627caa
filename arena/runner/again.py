"""A stored game played again for its replay: :func:`play_again` plays the game ``ID`` of a results
database again, with the very versions that played it, on its seed and settings, and keeps the
replay in the database's replays folder (:func:`replays_for`: ``arena.sqlite-replays``), noted
with the game (``arena matches show ID --view`` then shows it). A replay made on demand never
goes into a bot's folder.

Only a game whose every bot is a recorded version can be played again so (games stored before
versions were recorded: :class:`NoVersion`, whose text says what to run instead). The bots play
deterministically on a seed as a rule; one that does not may play another game than the one
stored: the replay shows what they play now.
"""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path

from ..errors import ArenaError
from ..match.launch.botspec import BotSpec, with_run_options
from ..match.loop import play_match
from ..match.replay import replay_document, replay_text, write_text_atomic
from ..match.settings import PlaySettings
from ..store.browse import stored_game
from ..store.results import Store
from ..versions.registry import Version
from ..versions.snapshot import store_for

__all__ = ["NoVersion", "replays_for", "play_again"]


class NoVersion(ArenaError):
    """A game stored before its bots were recorded as versions: it cannot be played again as it was."""


def replays_for(db: str | os.PathLike[str]) -> Path:
    """The folder of the replays made on demand for the games of the results database ``db``:
    ``arena.sqlite`` -> ``arena.sqlite-replays``."""
    return Path(os.path.abspath(os.fspath(db) + "-replays"))


def _specs(store: Store, tid: int, seats: tuple[str, ...], settings: PlaySettings) -> list[BotSpec]:
    bots = {b.name: b for b in store.bots(tid)}
    specs = []
    for name in seats:
        row = bots.get(name)
        version = None if row is None or row.version is None else store.version(row.version)
        if version is None:
            raise NoVersion(f"bot {name!r} of this game was stored before bots were recorded as versions")
        spec = Version.of(version).frozen_version(store_for(store.path), name).spec
        specs.append(with_run_options(spec, settings.libs, settings.env))
    return specs


def play_again(db: str | Path, game_id: int) -> Path:
    """Play the stored game ``game_id`` of ``db`` again and keep its replay (see the module's
    text): the replay file's path. Raises :class:`NoVersion`, or an
    :class:`arena.errors.ArenaError` (one line) when the game cannot be played again."""
    with Store(db) as store:
        row, record = stored_game(store, game_id)
        settings = PlaySettings.from_dict(row.settings)
        specs = _specs(store, row.id, record.seats, settings)
        if record.sandboxed is not None:  # as it was played
            settings = dataclasses.replace(settings, sandbox="on" if record.sandboxed else "off")
        options = settings.match_options(db=db, record=True)
        result = play_match(settings.game, record.seed, specs, options)
        if result.interrupted:
            raise KeyboardInterrupt
        path = replays_for(db) / f"game{game_id}-seed{record.seed}.json"
        path.parent.mkdir(exist_ok=True)
        write_text_atomic(path, replay_text(replay_document(result, settings.game_params())))
        store.set_replay(game_id, str(path))
    return path
