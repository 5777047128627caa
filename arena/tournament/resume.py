"""Why a run does not simply resume the tournament its user meant: the settings that differ from the
latest tournament of the same bots, so a new one starts.

:func:`settings_change` compares the settings a run asks for with the latest stored tournament of
the same game and bot names, and says which differ and which flags resume that tournament. (A
tournament that a failing bot stopped is refused by the runner: :mod:`arena.runner.runner`.)
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from ..store.records import TournamentRow
from .config import TournamentConfig

__all__ = ["SettingChange", "SettingsChange", "settings_change"]

_LABELS: dict[str, tuple[str, str | None]] = {
    "bots": ("bots", None),
    "format": ("format", "--format"),
    "baseline": ("baseline", "--baseline"),
    "seed": ("seed", "--seed"),
    "time_scale": ("time scale", "--time-scale"),
    "memory_limit_mb": ("memory limit (MB)", "--memory-limit"),
    "params": ("game parameters", "--param"),
    "sprt": ("SPRT", None),
    "sweep": ("sweep", None),
    "seeds": ("seeds", None),
}
"""Each setting of :meth:`TournamentConfig.schedule_key` (but the game): how it is named in the
message, and the flag that sets it (``None``: a setting that no single flag restores)."""


@dataclass(frozen=True)
class SettingChange:
    """One setting that differs: its label, the value asked for now, the stored tournament's,
    and the flags that restore the stored value (empty when no flag does)."""

    label: str
    now: str
    then: str
    flags: tuple[str, ...]


@dataclass(frozen=True)
class SettingsChange:
    """The latest tournament of the same bots, and how this run's settings differ from it."""

    tournament_id: int
    changes: tuple[SettingChange, ...]

    def describe(self) -> str:
        """One line: what differs, and how to resume the stored tournament instead."""
        tid = self.tournament_id
        differ = ", ".join(f"{c.label} {c.now} (tournament {tid}: {c.then})" for c in self.changes)
        flags = [f for c in self.changes for f in c.flags]
        unflagged = [c.label for c in self.changes if not c.flags]
        how = f"add {' '.join(flags)}" if flags else ""
        if unflagged:
            how += (" and " if how else "") + f"give the {', '.join(unflagged)} of tournament {tid}"
        return (
            f"settings differ from tournament {tid} of the same bots, so a new tournament starts: {differ}; "
            f"to resume tournament {tid} instead, {how}; pass --new to start a new one without this warning"
        )


_LONGEST = 60
"""The most characters of a value the message shows (a list of seeds may be long)."""


def _text(value: Any) -> str:
    """A setting's value as the message shows it: ``3`` for 3.0, ``none``, compact JSON, cut
    short past :data:`_LONGEST` characters."""
    if value is None:
        return "none"
    if isinstance(value, float):
        text = f"{value:g}"
    elif isinstance(value, (dict, list)):
        text = json.dumps(value, sort_keys=True, separators=(",", ":"))
    else:
        text = str(value)
    return text if len(text) <= _LONGEST else text[: _LONGEST - 3] + "..."


def _bot_changes(now: list[dict[str, Any]], then: list[dict[str, Any]]) -> list[SettingChange]:
    """Per bot name, the entries (command, arguments, environment, data) that differ."""
    old = {str(b.get("name")): {k: v for k, v in b.items() if k != "name"} for b in then}
    new = {str(b.get("name")): {k: v for k, v in b.items() if k != "name"} for b in now}
    return [
        SettingChange(f"bot {name!r}", _text(new[name]), _text(old.get(name)), ())
        for name in new
        if new[name] != old.get(name)
    ]


def _flags(key: str, then: Any) -> tuple[str, ...]:
    """The flags that ask for the stored value ``then`` of setting ``key``."""
    flag = _LABELS[key][1]
    if flag is None or then is None:
        return ()
    if key == "params":
        return tuple(f"{flag} {name}={value}" for name, value in sorted(dict(then).items())) or ()
    return (f"{flag} {_text(then)}",)


def _bot_names(settings: Mapping[str, Any]) -> list[str]:
    bots = settings.get("bots") or []
    return sorted(str(b.get("name")) for b in bots if isinstance(b, dict))


def settings_change(config: TournamentConfig, stored: Iterable[TournamentRow]) -> SettingsChange | None:
    """How ``config`` differs from the latest of ``stored`` that plays the same game with the same
    bot names; ``None`` when there is none (or nothing differs)."""
    now = config.schedule_key()
    names = sorted(b.name for b in config.bots)
    same = [r for r in stored if r.settings.get("game") == config.game and _bot_names(r.settings) == names]
    if not same:
        return None
    latest = max(same, key=lambda r: r.id)
    changes = []
    for key, (label, _flag) in _LABELS.items():
        new, old = now.get(key), latest.settings.get(key)
        if key == "bots":
            changes += _bot_changes(new or [], old or [])
        elif new != old:
            changes.append(SettingChange(label, _text(new), _text(old), _flags(key, old)))
    if not changes:
        return None
    return SettingsChange(latest.id, tuple(changes))
