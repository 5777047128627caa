"""How games are played: :class:`PlaySettings`, the one settings type of ``arena play``, a
tournament (:class:`arena.tournament.config.TournamentConfig` extends it with its schedule), a
ladder (:class:`arena.ladder.settings.LadderSettings` with its master seed) and their configs.

It holds the game and its rules (the league, the parameters), the time limits (their scale and the
margin an answer may take past them), each bot's memory limit, the sandbox, the replays kept, and
the library folders and environment variables given to every bot. Every setting is declared once,
with its key in a config file, its flag and how a raw value is read, in :mod:`arena.settings`
(whose :func:`arena.settings.read_play_settings` makes one from a config or the flags); the
command line makes its options from the same table (``cli/options.py``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import referee

from .limits import DEFAULT_MEMORY_LIMIT_MB
from .loop import MatchOptions
from .sandbox import SandboxMode, decide

__all__ = ["MAX_TIME_SCALE", "MAX_TIME_MARGIN_MS", "MAX_MEMORY_MB", "DEFAULT_GAME", "PlaySettings"]

MAX_TIME_SCALE = 1000.0
"""The largest time scale: a 50 ms turn becomes 50 s."""
MAX_TIME_MARGIN_MS = 60_000.0
"""The largest time margin (``--time-margin``): a minute."""
MAX_MEMORY_MB = 1024 * 1024
"""The largest memory limit of a bot (1 TB)."""
DEFAULT_GAME = "spring2021"
"""The game ``arena play`` plays when none is named."""


@dataclass(frozen=True)
class PlaySettings:
    """How every game of a match, a tournament or a ladder is played."""

    game: str
    league: int | None = None
    """The league level whose rules are played; ``None``: the game's top league."""
    params: Mapping[str, str] = field(default_factory=dict)
    """The game's parameters (the league is not among them: :attr:`league`)."""
    time_scale: float = 1.0
    """Multiplies every time limit."""
    time_margin_ms: float = 0.0
    """An answer this many ms past its limit is still taken (and counted as past it)."""
    memory_limit_mb: int | None = DEFAULT_MEMORY_LIMIT_MB
    """For each bot's whole process tree; ``None``: no limit."""
    sandbox: str = SandboxMode.AUTO.value
    """``auto``, ``on`` or ``off``: run each bot in a sandbox (:mod:`arena.match.sandbox`)."""
    replays: str | None = None
    """The folder where kept replays go (absolute); ``None``: none kept."""
    keep: str = "failures"
    """Which games keep a replay: ``all``, ``failures``, ``losses`` or the first N of each comparison."""
    libs: tuple[str, ...] = ()
    """Folders put first on every bot's ``PYTHONPATH`` (absolute), readable in the sandbox."""
    env: Mapping[str, str] = field(default_factory=dict)
    """Variables set for every bot (the sandbox clears the rest but a few)."""

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> PlaySettings:
        """The settings a stored tournament or ladder holds (its ``settings``: ``game``,
        ``league``, ``params``, ``time_scale``, ``time_margin``, ``memory_limit_mb``,
        ``sandbox``, ``replays`` and ``keep``, ``lib``, ``env``; those absent are the defaults)."""
        return cls(
            game=str(data["game"]),
            league=None if data.get("league") is None else int(data["league"]),
            params={str(k): str(v) for k, v in (data.get("params") or {}).items()},
            time_scale=float(data.get("time_scale", 1.0)),
            time_margin_ms=float(data.get("time_margin") or 0.0),
            memory_limit_mb=data.get("memory_limit_mb", DEFAULT_MEMORY_LIMIT_MB),
            sandbox=str(data.get("sandbox") or SandboxMode.AUTO.value),
            replays=None if data.get("replays") is None else str(data["replays"]),
            keep=str(data.get("keep") or "failures"),
            libs=tuple(str(d) for d in data.get("lib") or ()),
            env={str(k): str(v) for k, v in (data.get("env") or {}).items()},
        )

    def game_params(self) -> dict[str, str]:
        """What the referee of each game is given: the parameters, and the league unless top."""
        league = {} if self.league is None else {referee.LEAGUE: str(self.league)}
        return {**self.params, **league}

    def league_label(self) -> str:
        """``league 2 (Wood 1)``: the league played, as the game names it."""
        rules = referee.get(self.game)
        return rules.league_label(self.league or rules.top_league)

    def match_options(
        self,
        hide: tuple[str, ...] = (),
        *,
        db: str | Path | None = None,
        record: bool = False,
        no_timeout: bool = False,
    ) -> MatchOptions:
        """The options of every match played so: the limits, the parameters, the sandbox (decided
        here: ``auto`` is on where bubblewrap works), ``hide`` the paths the bots must not see
        (and the results database ``db`` with its lock file, and the replays folder), ``record``
        every frame, wait for answers forever (``no_timeout``). Raises
        :class:`arena.match.sandbox.SandboxUnavailable` for ``on`` where it does not."""
        confined, _ = decide(self.sandbox)
        if db is not None:
            hide = (*hide, str(Path(db).resolve()), f"{Path(db).resolve()}.lock")
        if self.replays is not None:
            hide = (*hide, self.replays)
        return MatchOptions(
            time_scale=self.time_scale,
            time_margin_ms=self.time_margin_ms,
            memory_limit_mb=self.memory_limit_mb,
            params=self.game_params() or None,
            sandbox=SandboxMode.ON if confined else SandboxMode.OFF,
            hide=hide,
            record=record,
            no_timeout=no_timeout,
        )
