"""The start of a Spring Challenge 2021 game at each league level, written again for the tests
from the official Java sources (CodinGame/SpringChallenge2021, ``Game.init``, ``BoardGenerator``,
``Game.initStartingTrees``, ``getPossibleMoves``, ``getCurrentFrameInfoFor``), on cube coordinates
as the Java works, without the referee's board tables, rules or league table.

Only ``java.util.Random`` is shared with the referee (checked on its own against Java's outputs in
``test_javarandom.py``). The league switch of ``Game.init`` (Game.java:64-100) is :data:`LEVELS`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from referee.javarandom import JavaRandom

Coord = tuple[int, int, int]

DIRECTIONS: list[Coord] = [(1, -1, 0), (1, 0, -1), (0, 1, -1), (-1, 1, 0), (-1, 0, 1), (0, -1, 1)]  # CubeCoord.java:6

HASHMAP_ORDER_3 = [1, 6, 8, 16, 21, 32, 19, 34, 35, 36, 11, 12, 13, 24, 29, 0, 2, 5, 9, 15, 22, 31, 7]
HASHMAP_ORDER_3 += [17, 18, 20, 33, 25, 26, 27, 28, 3, 4, 10, 14, 23, 30]
"""The cells of a 3-ring map in the order the generator's ``HashMap<CubeCoord, Cell>`` lists them
(the list it draws holes from; shared/parity/README.md S2)."""


@dataclass(frozen=True)
class Level:
    days: int | None  # None: MAX_ROUNDS
    grow: bool
    seed: bool
    shadows: bool
    holes: bool
    trees: int
    size: int
    gap: int
    edges: bool
    expected: str


LEVELS = {
    1: Level(1, False, False, False, False, 6, 3, 0, False, "COMPLETE <idx> | WAIT"),
    2: Level(6, True, False, False, False, 4, 1, 1, False, "GROW <idx> | COMPLETE <idx> | WAIT"),
    3: Level(None, True, True, True, True, 2, 1, 2, True, "SEED <from> <to> | GROW <idx> | COMPLETE <idx> | WAIT"),
}
"""Game.java:64-100 (days, actions, shadows, holes, starting trees) and Game.getExpected (121-129)."""


def add(a: Coord, b: Coord, k: int = 1) -> Coord:
    return (a[0] + k * b[0], a[1] + k * b[1], a[2] + k * b[2])


def distance(a: Coord, b: Coord) -> int:
    return (abs(a[0] - b[0]) + abs(a[1] - b[1]) + abs(a[2] - b[2])) // 2


def spiral(rings: int = 3) -> list[Coord]:
    """BoardGenerator.generate: cell 0 the centre, then ring by ring."""
    coords = [(0, 0, 0)]
    coord = DIRECTIONS[0]
    for ring in range(1, rings + 1):
        for orientation in range(6):
            for _ in range(ring):
                coords.append(coord)
                coord = add(coord, DIRECTIONS[(orientation + 2) % 6])
        coord = add(coord, DIRECTIONS[0])
    return coords


@dataclass
class Start:
    """The game after ``Game.init``: map, trees, and the random generator where it stands."""

    coords: list[Coord]
    richness: list[int]
    trees: dict[int, tuple[int, int]]  # cell -> (size, owner)
    random: JavaRandom
    shadows: dict[int, int] = field(default_factory=dict)

    def index(self, c: Coord) -> int:
        return self.coords.index(c) if c in self.coords else -1


def start(seed: int, level: int, max_empty_cells: int = 10) -> Start:
    """Game.init for a 3-ring map."""
    rules = LEVELS[level]
    random = JavaRandom(seed)
    coords = spiral(3)
    richness = [3 if distance(c, (0, 0, 0)) < 2 else 2 if distance(c, (0, 0, 0)) == 2 else 1 for c in coords]
    wanted = random.next_int(max_empty_cells + 1) if rules.holes else 0  # BoardGenerator.java:47
    made = 0
    while made < wanted - 1:
        cell = HASHMAP_ORDER_3[random.next_int(37)]
        if richness[cell] != 0:
            richness[cell] = 0
            made += 1
            mirror = coords.index(add((0, 0, 0), coords[cell], -1))
            if mirror != cell:
                richness[mirror] = 0
                made += 1
    s = Start(coords, richness, {}, random)
    pairs = _starting_pairs(s, rules)
    for i in range(rules.trees):
        s.trees[coords.index(pairs[2 * i])] = (rules.size, 0)
        s.trees[coords.index(pairs[2 * i + 1])] = (rules.size, 1)
    if rules.shadows:  # Game.calculateShadows with the sun in direction 0
        for cell, (size, _) in s.trees.items():
            for i in range(1, size + 1):
                shaded = s.index(add(coords[cell], DIRECTIONS[0], i))
                if shaded >= 0:
                    s.shadows[shaded] = max(s.shadows.get(shaded, 0), size)
    return s


def _starting_pairs(s: Start, rules: Level) -> list[Coord]:
    """Game.initStartingTrees / tryInitStartingTrees."""
    if rules.edges:
        candidates = [c for c in s.coords if distance(c, (0, 0, 0)) == 3]
    else:
        candidates = [c for c in s.coords if c != (0, 0, 0)]
    candidates = [c for c in candidates if s.richness[s.coords.index(c)] != 0]
    chosen: list[Coord] = []
    while len(chosen) < 2 * rules.trees:
        available = list(candidates)
        chosen = []
        for _ in range(rules.trees):
            if not available:
                break
            normal = available[s.random.next_int(len(available))]
            opposite = (-normal[0], -normal[1], -normal[2])
            available = [c for c in available if distance(c, normal) > rules.gap and distance(c, opposite) > rules.gap]
            chosen += [normal, opposite]
    return chosen


def global_lines(s: Start) -> list[str]:
    """Game.getGlobalInfoFor."""
    lines = [str(len(s.coords))]
    for i, c in enumerate(s.coords):
        lines.append(f"{i} {s.richness[i]} " + " ".join(str(s.index(add(c, d))) for d in DIRECTIONS))
    return lines


def first_sun(s: Start, player: int) -> int:
    """The sun of the first GATHERING frame (Game.giveSun)."""
    return sum(size for cell, (size, owner) in s.trees.items() if owner == player and s.shadows.get(cell, 0) < size)


def _shuffled(items: list[str], random: JavaRandom) -> list[str]:
    """Collections.shuffle: from the last place down, swap with a place drawn below it."""
    items = list(items)
    for i in range(len(items), 1, -1):
        j = random.next_int(i)
        items[i - 1], items[j] = items[j], items[i - 1]
    return items


def possible_moves(s: Start, level: int, player: int, sun: int) -> list[str]:
    """Game.getPossibleMoves for a player that is not waiting and has no dormant tree."""
    rules = LEVELS[level]
    base = (0, 1, 3, 7)
    count = [sum(1 for size, owner in s.trees.values() if owner == player and size == k) for k in range(4)]
    completes, grows, seeds = [], [], []
    for cell in sorted(s.trees):
        size, owner = s.trees[cell]
        if owner != player:
            continue
        if rules.seed and count[0] <= sun and size > 0:
            for x in range(-size, size + 1):  # Game.getCoordsInRange
                for y in range(max(-size, -x - size), min(size, -x + size) + 1):
                    target = s.index(add(s.coords[cell], (x, y, -x - y)))
                    if target >= 0 and s.richness[target] != 0 and target not in s.trees:
                        seeds.append(f"SEED {cell} {target}")
        cost = 4 if size == 3 else base[size + 1] + count[size + 1]
        if cost <= sun:
            if size == 3:
                completes.append(f"COMPLETE {cell}")
            elif rules.grow:
                grows.append(f"GROW {cell}")
    return ["WAIT", *_shuffled(completes, s.random), *_shuffled(grows, s.random), *_shuffled(seeds, s.random)]


def first_frames(s: Start, level: int) -> tuple[list[str], list[str]]:
    """The input of the first ACTIONS frame (engine turn 2) for player 0, then for player 1 (whose
    input starts with the map: player 0 had it at turn 1). Player 0's actions are shuffled first."""
    frames = []
    suns = [first_sun(s, 0), first_sun(s, 1)]
    for p in (0, 1):
        lines = ["0", "20", f"{suns[p]} 0", f"{suns[1 - p]} 0 0", str(len(s.trees))]
        lines += [f"{cell} {size} {int(owner == p)} 0" for cell, (size, owner) in sorted(s.trees.items())]
        moves = possible_moves(s, level, p, suns[p])
        frames.append([*lines, str(len(moves)), *moves])
    return frames[0], global_lines(s) + frames[1]
