-- Outflank's schema. One file for PostgreSQL and SQLite alike: TEXT ids, BIGINT epoch-millisecond
-- times, INTEGER counts and flags, no backend-specific types. Ids are `NOT NULL` explicitly
-- because SQLite otherwise allows NULL in a non-integer primary key.

-- Server-wide values, such as the generated session secret.
CREATE TABLE settings (
    key   TEXT NOT NULL PRIMARY KEY,
    value TEXT NOT NULL
);

-- One row per game. A NULL player id is the computer. Enumerations are stored as the domain's
-- lower-case text and checked when read.
CREATE TABLE games (
    id              TEXT NOT NULL PRIMARY KEY,
    mode            TEXT NOT NULL,
    level           TEXT,
    black_id        TEXT,
    black_name      TEXT NOT NULL,
    white_id        TEXT,
    white_name      TEXT NOT NULL,
    status          TEXT NOT NULL,
    winner          TEXT,
    end_reason      TEXT,
    black_discs     INTEGER,
    white_discs     INTEGER,
    start_position  TEXT NOT NULL,
    move_time_ms    BIGINT,
    room_code       TEXT,
    rated           INTEGER NOT NULL DEFAULT 0,
    created_at      BIGINT NOT NULL,
    updated_at      BIGINT NOT NULL,
    finished_at     BIGINT,
    turn_started_at BIGINT
);

-- Reloading live games after a restart.
CREATE INDEX games_live ON games (created_at) WHERE status = 'live';
-- A player's recent games, by colour.
CREATE INDEX games_black_recent ON games (black_id, finished_at);
CREATE INDEX games_white_recent ON games (white_id, finished_at);

-- One row per ply, passes included, numbered from 0. The primary key makes a second write of the
-- same ply fail, which is what makes double submission harmless.
CREATE TABLE moves (
    game_id   TEXT NOT NULL REFERENCES games (id),
    ply       INTEGER NOT NULL,
    mv        TEXT NOT NULL,
    played_at BIGINT NOT NULL,
    PRIMARY KEY (game_id, ply)
);

-- Friend rooms (invitation links) and the game currently played in each.
CREATE TABLE rooms (
    code         TEXT NOT NULL PRIMARY KEY,
    host_id      TEXT NOT NULL,
    host_name    TEXT NOT NULL,
    guest_id     TEXT,
    guest_name   TEXT,
    created_at   BIGINT NOT NULL,
    expires_at   BIGINT NOT NULL,
    game_id      TEXT REFERENCES games (id),
    games_played INTEGER NOT NULL DEFAULT 0
);
