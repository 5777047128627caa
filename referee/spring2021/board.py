"""The hexagonal board of Spring Challenge 2021: cells, neighbours, distances, shadows, holes.

Cells are indexed in the official spiral (0 = centre, then ring by ring). Coordinates are cube
coordinates ``(x, y, z)`` with ``x + y + z == 0``; direction ``d`` is ``DIRECTIONS[d]``, and the sun
in direction ``d`` casts shadows towards direction ``d``.

Everything the rules look up repeatedly (neighbours, distances, the cells shadowed by a tree, the
cells a tree can seed, in the official order) is computed once per board.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from itertools import compress

from ..javarandom import JavaRandom

__all__ = [
    "DIRECTIONS",
    "RICHNESS_NULL",
    "RICHNESS_POOR",
    "RICHNESS_OK",
    "RICHNESS_LUSH",
    "Coord",
    "Board",
    "Geometry",
    "geometry",
    "spiral_coords",
    "java_hashmap_order",
]

Coord = tuple[int, int, int]

DIRECTIONS: tuple[Coord, ...] = (
    (1, -1, 0),
    (1, 0, -1),
    (0, 1, -1),
    (-1, 1, 0),
    (-1, 0, 1),
    (0, -1, 1),
)

RICHNESS_NULL = 0
RICHNESS_POOR = 1
RICHNESS_OK = 2
RICHNESS_LUSH = 3


def neighbor(c: Coord, direction: int, distance: int = 1) -> Coord:
    dx, dy, dz = DIRECTIONS[direction]
    return (c[0] + dx * distance, c[1] + dy * distance, c[2] + dz * distance)


def distance(a: Coord, b: Coord) -> int:
    return (abs(a[0] - b[0]) + abs(a[1] - b[1]) + abs(a[2] - b[2])) // 2


def spiral_coords(rings: int) -> list[Coord]:
    """The cells' coordinates in index order (BoardGenerator's spiral)."""
    coords: list[Coord] = [(0, 0, 0)]
    c = neighbor((0, 0, 0), 0)
    for ring in range(1, rings + 1):
        for orientation in range(6):
            for _ in range(ring):
                coords.append(c)
                c = neighbor(c, (orientation + 2) % 6)
        c = neighbor(c, 0)
    return coords


def _java_int(v: int) -> int:
    v &= 0xFFFFFFFF
    return v - (1 << 32) if v >= 1 << 31 else v


def _cube_hash(c: Coord) -> int:
    """``CubeCoord.hashCode()``: 31-polynomial over x, y, z in Java int arithmetic."""
    h = 1
    for v in c:
        h = _java_int(31 * h + v)
    return h


def java_hashmap_order(keys: list[Coord]) -> list[Coord]:
    """Iteration order of a ``java.util.HashMap<CubeCoord, Cell>`` filled with ``keys`` in order.

    A HashMap iterates bucket by bucket; within a bucket, in insertion order (resizes keep the
    relative order). The table starts at 16 buckets and doubles when the size exceeds 3/4 of it,
    or when a bucket grows past 8 entries while the table is smaller than 64.
    """
    capacity = 16
    spread = []
    for key in keys:
        h = _cube_hash(key) & 0xFFFFFFFF
        spread.append(h ^ (h >> 16))
    buckets: dict[int, int] = {}
    for i, h in enumerate(spread):
        b = h & (capacity - 1)
        buckets[b] = buckets.get(b, 0) + 1
        if buckets[b] > 8:
            if capacity < 64:
                capacity *= 2
            else:  # pragma: no cover - only for boards far larger than any real game
                raise ValueError("board too large: HashMap tree bins are not emulated")
        if i + 1 > capacity * 3 // 4:
            capacity *= 2
        buckets = {}
        for h2 in spread[: i + 1]:
            b2 = h2 & (capacity - 1)
            buckets[b2] = buckets.get(b2, 0) + 1
    order = sorted(range(len(keys)), key=lambda i: (spread[i] & (capacity - 1), i))
    return [keys[i] for i in order]


@dataclass(frozen=True, eq=False)
class Geometry:
    """Everything about a board that depends only on its number of rings (cached per size)."""

    rings: int
    coords: tuple[Coord, ...]
    index_of: dict[Coord, int] = field(repr=False)
    neighbors: tuple[tuple[int, ...], ...] = field(repr=False)
    """``neighbors[cell][d]``: index of the neighbour in direction d, -1 off the board."""
    dist: tuple[tuple[int, ...], ...] = field(repr=False)
    shadow_cells: tuple[tuple[tuple[int, ...], ...], ...] = field(repr=False)
    """``shadow_cells[d][cell]``: the on-board cells 1, 2, 3 steps away in direction d."""
    shadow_reach: tuple[tuple[tuple[tuple[int, ...], ...], ...], ...] = field(repr=False)
    """``shadow_reach[d][cell][size]``: the cells a tree of that size shades, ``shadow_cells[d][cell][:size]``."""
    seed_range: tuple[tuple[tuple[int, ...], ...], ...] = field(repr=False)
    """``seed_range[cell][size]``: on-board cells within ``size`` of ``cell``, official order."""
    rank: tuple[int, ...] = field(repr=False)
    """``rank[cell]``: the cell's place when all cells are sorted by (x, y). The official range
    order is (x, y) order too, so any set of cells, kept as a mask of ``1 << rank[cell]`` bits,
    lists in that order from its lowest bit up."""
    rank_bit: tuple[int, ...] = field(repr=False)
    """``rank_bit[cell]``: ``1 << rank[cell]``."""
    seed_mask: tuple[tuple[int, ...], ...] = field(repr=False)
    """``seed_mask[cell][size]``: ``seed_range[cell][size]`` as a mask of rank bits."""
    seed_text: tuple[tuple[str, ...], ...] = field(repr=False)
    """``seed_text[cell][r]``: the command ``SEED cell t`` for the cell ``t`` of rank ``r``."""
    seed_lists: tuple[dict[int, tuple[str, ...]], ...] = field(repr=False)
    """``seed_lists[cell]``: a memo, mask of target ranks -> their ``seed_text``, lowest rank first
    (filled and bounded by :func:`.rules.possible_actions`)."""
    hashmap_order: tuple[int, ...] = field(repr=False)
    """Cell indices in the iteration order of the generator's HashMap (hole picks)."""
    ring_of: tuple[int, ...] = field(repr=False)
    edge_cells: tuple[int, ...] = field(repr=False)
    """The cells of the outer ring, in index order."""
    ring_richness: tuple[int, ...] = field(repr=False)
    """Each cell's richness before holes are made (lush centre, ok middle, poor outer ring)."""
    cell_text: tuple[tuple[str, ...], ...] = field(repr=False)
    """``cell_text[cell][richness]``: the cell's line of the initial input, ``index richness n0..n5``."""

    @property
    def size(self) -> int:
        return len(self.coords)


@cache
def geometry(rings: int) -> Geometry:
    coords = spiral_coords(rings)
    index_of = {c: i for i, c in enumerate(coords)}
    neighbors = tuple(tuple(index_of.get(neighbor(c, d), -1) for d in range(6)) for c in coords)
    dist = tuple(tuple(distance(a, b) for b in coords) for a in coords)
    shadow_cells = tuple(
        tuple(tuple(index_of[neighbor(c, d, i)] for i in range(1, 4) if neighbor(c, d, i) in index_of) for c in coords)
        for d in range(6)
    )

    def in_range(center: Coord, n: int) -> tuple[int, ...]:
        # Game.getCoordsInRange: x = -N..N, y = max(-N, -x-N)..min(N, -x+N).
        out = []
        for x in range(-n, n + 1):
            for y in range(max(-n, -x - n), min(n, -x + n) + 1):
                c = (center[0] + x, center[1] + y, center[2] - x - y)
                if c in index_of:
                    out.append(index_of[c])
        return tuple(out)

    seed_range = tuple(tuple(in_range(c, s) for s in range(4)) for c in coords)
    ring_of = [distance(c, (0, 0, 0)) for c in coords]
    by_rank = sorted(range(len(coords)), key=lambda i: coords[i][:2])
    rank = [0] * len(coords)
    for r, cell in enumerate(by_rank):
        rank[cell] = r
    return Geometry(
        rings=rings,
        coords=tuple(coords),
        index_of=index_of,
        neighbors=neighbors,
        dist=dist,
        shadow_cells=shadow_cells,
        shadow_reach=tuple(tuple(tuple(line[:s] for s in range(4)) for line in by_cell) for by_cell in shadow_cells),
        seed_range=seed_range,
        rank=tuple(rank),
        rank_bit=tuple(1 << r for r in rank),
        seed_mask=tuple(tuple(sum(1 << rank[t] for t in in_size) for in_size in in_cell) for in_cell in seed_range),
        seed_text=tuple(tuple(f"SEED {c} {t}" for t in by_rank) for c in range(len(coords))),
        seed_lists=tuple({} for _ in coords),
        hashmap_order=tuple(index_of[c] for c in java_hashmap_order(coords)),
        ring_of=tuple(ring_of),
        edge_cells=tuple(i for i, r in enumerate(ring_of) if r == rings),
        ring_richness=tuple(_ring_richness(r, rings) for r in ring_of),
        cell_text=tuple(
            tuple(f"{i} {r} " + " ".join(map(str, neighbors[i])) for r in range(RICHNESS_LUSH + 1))
            for i in range(len(coords))
        ),
    )


class Board:
    """A board: its geometry and each cell's richness (0 = hole)."""

    __slots__ = (
        "geometry",
        "richness",
        "rings",
        "coords",
        "neighbors",
        "dist",
        "shadow_cells",
        "seed_range",
        "open_mask",
        "size",
    )

    def __init__(self, rings: int, richness: list[int] | tuple[int, ...]) -> None:
        g = geometry(rings)
        if len(richness) != g.size:
            raise ValueError(f"a {rings}-ring board has {g.size} cells, got {len(richness)} richness values")
        self.geometry = g
        self.rings = rings
        self.richness: tuple[int, ...] = tuple(richness)
        self.coords = g.coords
        self.neighbors = g.neighbors
        self.dist = g.dist
        self.shadow_cells = g.shadow_cells
        self.seed_range = g.seed_range
        self.open_mask = sum(compress(g.rank_bit, self.richness))  # richness 0 leaves the bit out
        """The cells that are not holes, as a mask of rank bits (see :attr:`Geometry.rank`)."""
        self.size = g.size

    @classmethod
    def standard(cls, rings: int = 3, holes: tuple[int, ...] = ()) -> Board:
        """A board with the official ring richness and the given cells made holes."""
        g = geometry(rings)
        richness = list(g.ring_richness)
        for cell in holes:
            richness[cell] = RICHNESS_NULL
        return cls(rings, richness)

    @classmethod
    def generate(cls, random: JavaRandom, rings: int = 3, max_empty_cells: int = 10) -> Board:
        """BoardGenerator.generate: ring richness, then random symmetric holes.

        Draws ``nextInt(max_empty_cells + 1)`` = holes wanted, then ``nextInt(#cells)`` per pick
        over the HashMap iteration order until at least ``wanted - 1`` cells are holes.
        """
        g = geometry(rings)
        richness = list(g.ring_richness)
        order = g.hashmap_order
        wanted = random.next_int(max_empty_cells + 1)
        actual = 0
        while actual < wanted - 1:
            cell = order[random.next_int(len(order))]
            if richness[cell] != RICHNESS_NULL:
                richness[cell] = RICHNESS_NULL
                actual += 1
                opposite = g.index_of[_negate(g.coords[cell])]
                if opposite != cell:
                    richness[opposite] = RICHNESS_NULL
                    actual += 1
        return cls(rings, richness)

    def opposite(self, cell: int) -> int:
        return self.geometry.index_of[_negate(self.coords[cell])]

    def edge_cells(self) -> list[int]:
        """Cells on the outer ring, in index order (Game.getBoardEdges)."""
        return list(self.geometry.edge_cells)

    def global_info_lines(self) -> list[str]:
        """The initial input block: cell count, then ``index richness n0..n5`` per cell."""
        richness = self.richness
        if richness and min(richness) >= RICHNESS_NULL and max(richness) <= RICHNESS_LUSH:  # the made texts
            text = self.geometry.cell_text
            return [str(self.size), *[text[i][r] for i, r in enumerate(richness)]]
        return [str(self.size)] + [
            f"{i} {richness[i]} " + " ".join(map(str, self.neighbors[i])) for i in range(self.size)
        ]


def _negate(c: Coord) -> Coord:
    return (-c[0], -c[1], -c[2])


def _ring_richness(ring: int, rings: int) -> int:
    if ring == rings:
        return RICHNESS_POOR
    if ring == rings - 1:
        return RICHNESS_OK
    return RICHNESS_LUSH
