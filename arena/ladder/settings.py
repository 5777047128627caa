"""A ladder's settings: how every one of its games is played (the one settings type,
:class:`arena.match.settings.PlaySettings`) and its master seed, fixed when the ladder is made
(``arena ladder init``). Games played weeks apart are compared with each other, so they must be
played alike: a later run that asks for another setting is refused, naming it (:func:`differences`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from ..match.settings import PlaySettings
from ..settings import read_play_settings, setting

__all__ = ["KIND", "LadderSettings", "read_settings", "differences", "is_ladder"]

KIND = "ladder"
"""The ``kind`` of a ladder's stored settings (a tournament's have none) and the ``key`` of its row
(a tournament's is a hash of its settings): a ladder is a row of the results database's
``tournaments`` table, so its games are found and shown as a tournament's."""

_KEYS = ("league", "params", "time_scale", "time_margin_ms", "memory_limit_mb", "sandbox", "libs", "env", "seed")
"""The settings fixed at init besides the game, in the order a refusal names them (the replays a
run keeps are its own)."""


@dataclass(frozen=True)
class LadderSettings(PlaySettings):
    """How a ladder's games are played, and its master seed."""

    seed: int = 0
    """The master seed: the ``k``-th pair of games of every two bots is played on seed ``k`` of
    it, so all bots meet the same maps."""

    def to_dict(self) -> dict[str, Any]:
        """As stored (the ``settings`` of the ladder's row): ``kind`` says it is a ladder; the
        settings a ladder of an earlier release could not have are written only when given."""
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
        if self.time_margin_ms:
            out["time_margin"] = self.time_margin_ms
        if self.libs:
            out["lib"] = list(self.libs)
        if self.env:
            out["env"] = dict(sorted(self.env.items()))
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> LadderSettings:
        play = PlaySettings.from_dict(data)
        return cls(**{f.name: getattr(play, f.name) for f in fields(PlaySettings)}, seed=int(data.get("seed") or 0))

    def describe(self, key: str) -> str:
        """Setting ``key`` as words (``time scale 2``, ``league 2 (Wood 1)``)."""
        if key == "league":
            return self.league_label()
        if key == "params":
            return "parameters " + (", ".join(f"{k}={v}" for k, v in sorted(self.params.items())) or "none")
        if key == "memory_limit_mb":
            return "no memory limit" if self.memory_limit_mb is None else f"memory limit {self.memory_limit_mb} MB"
        if key == "time_margin_ms":
            return f"time margin {self.time_margin_ms:g} ms"
        if key == "libs":
            return "library folders " + (", ".join(self.libs) or "none")
        if key == "env":
            return "environment " + (", ".join(f"{k}={v}" for k, v in sorted(self.env.items())) or "none")
        value = getattr(self, key)
        return f"{key.replace('_', ' ')} {value:g}" if isinstance(value, float) else f"{key.replace('_', ' ')} {value}"


def is_ladder(settings: Mapping[str, Any]) -> bool:
    """Whether a stored row's settings are a ladder's (not a tournament's)."""
    return settings.get("kind") == KIND


def read_settings(game: str, given: Mapping[str, Any], base: LadderSettings | None = None) -> LadderSettings:
    """The settings ``given`` as a config or the flags give them (those of
    :func:`arena.settings.read_play_settings`, and ``seed``; raw text as typed), over ``base``
    (the defaults when ``None``). Raises :class:`arena.settings.ConfigError` (one line) for a
    value that cannot be used."""
    play = read_play_settings(given, game, base=base)
    seed = base.seed if base is not None else 0
    if given.get("seed") is not None:
        seed = setting("seed").value(given)
    return LadderSettings(**{f.name: getattr(play, f.name) for f in fields(PlaySettings)}, seed=seed)


def differences(stored: LadderSettings, asked: LadderSettings) -> list[str]:
    """What ``asked`` changes of ``stored``, in words (``time scale 1 (this run: 2)``); empty when
    they agree."""
    out = []
    for key in _KEYS:
        if getattr(stored, key) != getattr(asked, key):
            out.append(f"{stored.describe(key)} (this run: {asked.describe(key)})")
    return out
