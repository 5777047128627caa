"""The results database's SQL: the schema as cgarena 0.1.0 created it (version 1) and the
migrations that bring any database to :data:`SCHEMA_VERSION`.

A new database is created at version 1 and migrated like an old one, so both end with the same
schema (a test compares them)."""

from __future__ import annotations

__all__ = ["SCHEMA_VERSION", "SCHEMA_V1", "MIGRATIONS"]

SCHEMA_VERSION = 10
"""1: cgarena 0.1.0. 2: ``bots.hash_scheme`` (how ``source_hash`` was computed). 3: players in
``game_players`` and comparison bots in ``comparison_bots`` instead of two fixed columns.
4: ``game_players.refused`` (illegal actions refused; NULL, unknown, for games stored before).
5: ``games.replay`` (the path of the game's replay file, when one was kept).
6: ``games.sandbox`` (1: the bots ran in the sandbox, 0: not, NULL: stored before it existed).
7: ``games.worker`` (the Dask worker that played the game; NULL: played on the tournament's machine).
8: ladders (``arena ladder``): ``games.meta`` (the referee's facts about the game's start, JSON;
NULL: stored before), ``bots.state`` (``active``, ``retired``, ``removed``), ``bots.added`` (when
the bot joined), ``bots.frozen`` (a ladder bot's frozen version, JSON), and ``picks`` (why each
pair of a ladder's games was chosen).
9: ``game_players.limit_use`` (how close the answers came to their limits: a histogram over
fractions of the limit and the closest call, JSON, see :mod:`arena.match.protocol.latency`; NULL: stored
before) and ``game_players.overloaded`` (1: the bot's timeout came in an overloaded window, see
:mod:`arena.match.protocol.schedlag`; NULL: stored before, an ordinary timeout). ``near_limit`` (answers
over 80% of the limit) is still written, for older releases reading the file.
10: ``versions`` (every bot version the arena froze, recorded once per name and content: its name,
its number among that name's versions, its content hash, when and where from it was frozen, and
its frozen form, JSON, see :mod:`arena.versions.registry`) and ``bots.version`` (the version a
tournament's or ladder's bot plays; NULL: stored before, or not frozen). The ladders' frozen bots
stored before are recorded as versions by the migration (origin ``''``: unknown)."""

_TO_3 = """
CREATE TABLE games_v3 (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
    comparison INTEGER NOT NULL,
    pair INTEGER NOT NULL,
    leg INTEGER NOT NULL,
    seed INTEGER NOT NULL,
    winner INTEGER,
    end_reason TEXT NOT NULL,
    turns INTEGER NOT NULL,
    duration_s REAL NOT NULL,
    referee_version TEXT NOT NULL,
    finished REAL NOT NULL,
    PRIMARY KEY (tournament_id, comparison, pair, leg)
);
INSERT INTO games_v3 SELECT tournament_id, comparison, pair, leg, seed, winner, end_reason, turns,
    duration_s, referee_version, finished FROM games;
CREATE TABLE players_v3 AS
    SELECT tournament_id, comparison, pair, leg, 0 AS seat, seat0 AS bot, score0 AS score,
           (score1 > score0) AS rank, status0 AS status, message0 AS message, latency0 AS latency,
           near_limit0 AS near_limit, stderr0 AS stderr FROM games
    UNION ALL
    SELECT tournament_id, comparison, pair, leg, 1, seat1, score1, (score0 > score1), status1,
           message1, latency1, near_limit1, stderr1 FROM games;
DROP TABLE games;
ALTER TABLE games_v3 RENAME TO games;
CREATE TABLE game_players (
    tournament_id INTEGER NOT NULL,
    comparison INTEGER NOT NULL,
    pair INTEGER NOT NULL,
    leg INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    bot TEXT NOT NULL,
    score INTEGER NOT NULL,
    rank INTEGER NOT NULL,
    status TEXT NOT NULL,
    message TEXT NOT NULL,
    latency BLOB NOT NULL,
    near_limit INTEGER NOT NULL,
    stderr TEXT NOT NULL,
    PRIMARY KEY (tournament_id, comparison, pair, leg, seat),
    FOREIGN KEY (tournament_id, comparison, pair, leg)
        REFERENCES games (tournament_id, comparison, pair, leg)
);
INSERT INTO game_players SELECT * FROM players_v3 ORDER BY tournament_id, comparison, pair, leg, seat;
DROP TABLE players_v3;
CREATE TABLE comparisons_v3 (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
    idx INTEGER NOT NULL,
    decision TEXT,
    decided_at_pair INTEGER,
    PRIMARY KEY (tournament_id, idx)
);
INSERT INTO comparisons_v3 SELECT tournament_id, idx, decision, decided_at_pair FROM comparisons;
CREATE TABLE comparison_bots_v3 AS
    SELECT tournament_id, idx, 0 AS position, bot_a AS bot FROM comparisons
    UNION ALL SELECT tournament_id, idx, 1, bot_b FROM comparisons;
DROP TABLE comparisons;
ALTER TABLE comparisons_v3 RENAME TO comparisons;
CREATE TABLE comparison_bots (
    tournament_id INTEGER NOT NULL,
    idx INTEGER NOT NULL,
    position INTEGER NOT NULL,
    bot TEXT NOT NULL,
    PRIMARY KEY (tournament_id, idx, position),
    FOREIGN KEY (tournament_id, idx) REFERENCES comparisons (tournament_id, idx)
);
INSERT INTO comparison_bots SELECT * FROM comparison_bots_v3 ORDER BY tournament_id, idx, position;
DROP TABLE comparison_bots_v3;
"""

_TO_8 = """
ALTER TABLE games ADD COLUMN meta TEXT;
ALTER TABLE bots ADD COLUMN state TEXT NOT NULL DEFAULT 'active';
ALTER TABLE bots ADD COLUMN added REAL;
ALTER TABLE bots ADD COLUMN frozen TEXT;
CREATE TABLE picks (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
    comparison INTEGER NOT NULL,
    pair INTEGER NOT NULL,
    reason TEXT NOT NULL,
    picked REAL NOT NULL,
    PRIMARY KEY (tournament_id, comparison, pair)
);
"""

_TO_10 = """
CREATE TABLE versions (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    number INTEGER NOT NULL,
    hash TEXT NOT NULL,
    created REAL NOT NULL,
    origin TEXT NOT NULL,
    frozen TEXT NOT NULL,
    UNIQUE (name, number),
    UNIQUE (name, hash)
);
ALTER TABLE bots ADD COLUMN version INTEGER REFERENCES versions (id);
CREATE TEMPORARY TABLE frozen_bots AS
    SELECT b.rowid AS bot, b.name AS name, b.source_hash AS hash, COALESCE(b.added, t.created) AS created,
           b.frozen AS frozen
    FROM bots b JOIN tournaments t ON t.id = b.tournament_id
    WHERE b.frozen IS NOT NULL;
INSERT INTO versions (name, number, hash, created, origin, frozen)
    SELECT f.name, -f.bot, f.hash, f.created, '', f.frozen FROM frozen_bots f
    WHERE NOT EXISTS (
        SELECT 1 FROM frozen_bots e
        WHERE e.name = f.name AND e.hash = f.hash
          AND (e.created < f.created OR (e.created = f.created AND e.bot < f.bot))
    )
    ORDER BY f.created, f.bot;
UPDATE versions SET number = (SELECT COUNT(*) FROM versions e WHERE e.name = versions.name AND e.id <= versions.id);
UPDATE bots SET version = (SELECT v.id FROM versions v WHERE v.name = bots.name AND v.hash = bots.source_hash)
    WHERE frozen IS NOT NULL;
DROP TABLE frozen_bots
"""
"""Schema 10: the ``versions`` table and ``bots.version``. The frozen bots that ladders already
hold (``bots.frozen``; ``bots.source_hash`` is their frozen version's hash, as ``arena ladder add``
wrote it) are recorded: one version per name and hash, numbered per name in the order they were
added (then in the order of their rows), created when they were added, origin ``''`` (unknown),
and each such bot points to its version. The ids are given in that order (``INSERT ... ORDER
BY``) with a number that cannot clash (minus the bot's row), then renumbered 1, 2, 3... per name."""

MIGRATIONS: dict[int, str] = {
    1: "ALTER TABLE bots ADD COLUMN hash_scheme INTEGER NOT NULL DEFAULT 1;",
    2: _TO_3,
    3: "ALTER TABLE game_players ADD COLUMN refused INTEGER;",
    4: "ALTER TABLE games ADD COLUMN replay TEXT;",
    5: "ALTER TABLE games ADD COLUMN sandbox INTEGER;",
    6: "ALTER TABLE games ADD COLUMN worker TEXT;",
    7: _TO_8,
    8: "ALTER TABLE game_players ADD COLUMN limit_use TEXT; ALTER TABLE game_players ADD COLUMN overloaded INTEGER;",
    9: _TO_10,
}
"""``MIGRATIONS[k]`` turns a database of schema version ``k`` into one of version ``k + 1``. A new
database is created at version 1 and migrated like an old one, so both end the same."""

SCHEMA_V1 = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS tournaments (
    id INTEGER PRIMARY KEY,
    key TEXT NOT NULL,
    settings TEXT NOT NULL,
    status TEXT NOT NULL,
    games_target INTEGER NOT NULL,
    referee_version TEXT NOT NULL,
    created REAL NOT NULL,
    updated REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS tournaments_key ON tournaments (key);
CREATE TABLE IF NOT EXISTS bots (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
    name TEXT NOT NULL,
    command TEXT NOT NULL,
    env TEXT NOT NULL,
    source_hash TEXT NOT NULL,
    files TEXT NOT NULL,
    PRIMARY KEY (tournament_id, name)
);
CREATE TABLE IF NOT EXISTS comparisons (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
    idx INTEGER NOT NULL,
    bot_a TEXT NOT NULL,
    bot_b TEXT NOT NULL,
    decision TEXT,
    decided_at_pair INTEGER,
    PRIMARY KEY (tournament_id, idx)
);
CREATE TABLE IF NOT EXISTS games (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
    comparison INTEGER NOT NULL,
    pair INTEGER NOT NULL,
    leg INTEGER NOT NULL,
    seed INTEGER NOT NULL,
    seat0 TEXT NOT NULL,
    seat1 TEXT NOT NULL,
    score0 INTEGER NOT NULL,
    score1 INTEGER NOT NULL,
    winner INTEGER,
    status0 TEXT NOT NULL,
    status1 TEXT NOT NULL,
    message0 TEXT NOT NULL,
    message1 TEXT NOT NULL,
    end_reason TEXT NOT NULL,
    turns INTEGER NOT NULL,
    duration_s REAL NOT NULL,
    latency0 BLOB NOT NULL,
    latency1 BLOB NOT NULL,
    near_limit0 INTEGER NOT NULL,
    near_limit1 INTEGER NOT NULL,
    stderr0 TEXT NOT NULL,
    stderr1 TEXT NOT NULL,
    referee_version TEXT NOT NULL,
    finished REAL NOT NULL,
    PRIMARY KEY (tournament_id, comparison, pair, leg)
);
"""
