"""A ladder's settings: what every one of its games is played under, fixed when the ladder is
made (``arena ladder init``). Games played weeks apart are compared with each other, so they must
be played alike: a later run that asks for another setting is refused, naming it
(:func:`differences`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import referee

from ..match.limits import DEFAULT_MEMORY_LIMIT_MB
from ..tournament.config import read_params
from ..tournament.settings import ConfigError, setting

__all__ = ["KIND", "LadderSettings", "read_settings", "differences", "is_ladder"]

KIND = "ladder"
"""The ``kind`` of a ladder's stored settings (a tournament's have none): a ladder is a row of the
results database's ``tournaments`` table, so its games are found and shown as a tournament's."""

_KEYS = ("league", "params", "time_scale", "memory_limit_mb", "sandbox", "seed")
"""The settings fixed at init besides the game, in the order a refusal names them."""


@dataclass(frozen=True)
class LadderSettings:
    """How a ladder's games are played."""

    game: str
    league: int | None = None
    """The league level played; ``None``: the game's top league."""
    params: Mapping[str, str] = field(default_factory=dict)
    time_scale: float = 1.0
    memory_limit_mb: int | None = DEFAULT_MEMORY_LIMIT_MB
    sandbox: str = "auto"
    seed: int = 0
    """The master seed: the ``k``-th pair of games of every two bots is played on seed ``k`` of
    it, so all bots meet the same maps."""

    def game_params(self) -> dict[str, str]:
        """What the referee of each game is given: the parameters, and the league unless top."""
        league = {} if self.league is None else {referee.LEAGUE: str(self.league)}
        return {**self.params, **league}

    def to_dict(self) -> dict[str, Any]:
        """As stored (the ``settings`` of the ladder's row): ``kind`` says it is a ladder."""
        out: dict[str, Any] = {
            "kind": KIND,
            "format": KIND,
            "game": self.game,
            "params": dict(sorted(self.params.items())),
            "time_scale": self.time_scale,
            "memory_limit_mb": self.memory_limit_mb,
            "sandbox": self.sandbox,
            "seed": self.seed,
        }
        if self.league is not None:
            out["league"] = self.league
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> LadderSettings:
        return cls(
            game=str(data["game"]),
            league=None if data.get("league") is None else int(data["league"]),
            params={str(k): str(v) for k, v in (data.get("params") or {}).items()},
            time_scale=float(data.get("time_scale", 1.0)),
            memory_limit_mb=data.get("memory_limit_mb", DEFAULT_MEMORY_LIMIT_MB),
            sandbox=str(data.get("sandbox") or "auto"),
            seed=int(data.get("seed") or 0),
        )

    def describe(self, key: str) -> str:
        """Setting ``key`` as words (``time scale 2``, ``league 2 (Wood 1)``)."""
        if key == "league":
            rules = referee.get(self.game)
            return rules.league_label(self.league or rules.top_league)
        if key == "params":
            return "parameters " + (", ".join(f"{k}={v}" for k, v in sorted(self.params.items())) or "none")
        if key == "memory_limit_mb":
            return "no memory limit" if self.memory_limit_mb is None else f"memory limit {self.memory_limit_mb} MB"
        value = getattr(self, key)
        return f"{key.replace('_', ' ')} {value:g}" if isinstance(value, float) else f"{key.replace('_', ' ')} {value}"


def is_ladder(settings: Mapping[str, Any]) -> bool:
    """Whether a stored row's settings are a ladder's (not a tournament's)."""
    return settings.get("kind") == KIND


def read_settings(game: str, given: Mapping[str, Any], base: LadderSettings | None = None) -> LadderSettings:
    """The settings ``given`` as a config or the flags give them (``league``, ``params``,
    ``time_scale``, ``memory_limit_mb``, ``sandbox``, ``seed``; raw text as typed), over ``base``
    (the defaults when ``None``). Raises :class:`ConfigError` (one line) for a value that cannot
    be used."""
    try:
        rules = referee.get(game)
    except referee.UnknownGame as exc:
        raise ConfigError(str(exc)) from None
    start = base or LadderSettings(game=rules.name)
    data = {k: v for k, v in given.items() if v is not None and v != {} and v != ()}
    params, league = start.params, start.league
    if "params" in data or "league" in data:
        merged = {"params": {**start.params, **dict(data.get("params") or {})}, "league": data.get("league")}
        if merged["league"] is None and start.league is not None:
            merged["league"] = str(start.league)
        params, league = read_params(merged, rules.name)
    return LadderSettings(
        game=rules.name,
        league=league,
        params=params,
        time_scale=setting("time_scale").value(data, start.time_scale),
        memory_limit_mb=setting("memory_limit_mb").value(data, start.memory_limit_mb),
        sandbox=setting("sandbox").value(data, start.sandbox),
        seed=setting("seed").value(data, start.seed) if "seed" in data else start.seed,
    )


def differences(stored: LadderSettings, asked: LadderSettings) -> list[str]:
    """What ``asked`` changes of ``stored``, in words (``time scale 1 (this run: 2)``); empty when
    they agree."""
    out = []
    for key in _KEYS:
        if getattr(stored, key) != getattr(asked, key):
            out.append(f"{stored.describe(key)} (this run: {asked.describe(key)})")
    return out
