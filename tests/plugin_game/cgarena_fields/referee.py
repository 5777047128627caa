"""The referee of "fields": three players, one of them answering two lines a turn."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, ClassVar

from referee import DeactivationCause, EndReason, InvalidCommand, ParameterError
from referee.engine import EngineReferee
from referee.javarandom import JavaRandom

FIELDS = 5
UNITS = (2, 1, 1)
ELIMINATION_TURN = 4
_COMMAND = re.compile(r"^(?:TAKE (\d{1,3})|WAIT)$")


def parse_unit(line: str) -> int | None:
    """A unit's command: the field it takes, or None for WAIT."""
    match = _COMMAND.match(line.strip())
    if match is None:
        raise InvalidCommand("TAKE <field> | WAIT", line)
    return None if match.group(1) is None else int(match.group(1))


class FieldsReferee(EngineReferee):
    name = "fields"
    aliases: ClassVar[tuple[str, ...]] = ("field-game",)
    title = "Fields (test plugin)"
    player_count = 3
    first_turn_time_ms = 1000
    turn_time_ms = 100

    def __init__(self, seed: int, params: Mapping[str, str] | None = None) -> None:
        params = dict(params or {})
        turns = params.pop("turns", "8")
        if params:
            raise ParameterError(f"unknown parameter {sorted(params)[0]!r} for fields; known: turns")
        if not turns.isdigit() or not 4 <= int(turns) <= 50:
            raise ParameterError(f"turns must be a whole number from 4 to 50, not {turns!r}")
        super().__init__(seed)
        self.max_turns = int(turns)
        self._random = JavaRandom(self._seed)
        self.values: list[int] = []

    def _begin_turn(self) -> list[int]:
        self.values = [self._random.next_int(9) + 1 for _ in range(FIELDS)]
        players = [p for p in range(self.player_count) if self.active[p]]
        for p in players:
            if self.turn == 1:
                self._send(p, [f"{p} {UNITS[p]}"])
            self._send(p, [str(self.turn), " ".join(map(str, self.values)), " ".join(map(str, self.scores))])
        return players

    def _expected_lines(self, player: int) -> int:
        return UNITS[player]

    def _resolve(self, outputs: dict[int, tuple[str, ...] | None]) -> None:
        actions = self._parse_answers(outputs, lambda lines: tuple(parse_unit(line) for line in lines))
        claims: dict[int, list[int]] = {}
        for p, targets in enumerate(actions):
            for field in targets or ():
                if field is None:
                    continue
                if field >= FIELDS:
                    self._error(p, f"field {field} does not exist")
                    continue
                claims.setdefault(field, []).append(p)
        for field in sorted(claims):
            owners = claims[field]
            if len(owners) == 1:
                self.scores[owners[0]] += self.values[field]
                self._say(f"${owners[0]} takes field {field} for {self.values[field]}")
            else:
                self._say(f"field {field} is contested: nobody scores")
        alive = [p for p in range(self.player_count) if self.active[p]]
        if self.turn == ELIMINATION_TURN and len(alive) == 3:
            lowest = min(alive, key=lambda p: (self.scores[p], -p))
            self._deactivate(lowest, DeactivationCause.ELIMINATED, f"lowest score after turn {ELIMINATION_TURN}")
            self._say(f"${lowest} is eliminated")
        if sum(self.active) < 2:
            self._end_game(EndReason.PLAYER_DEACTIVATED)

    def _snapshot(self) -> dict[str, Any]:
        return {"values": list(self.values)}
