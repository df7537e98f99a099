-- The engine's review of a finished game: one row per game, written by the node that claims it.
-- `status` is queued, running, done or failed; `engine` names the engine that made (or is to
-- make) the review, so a newer engine may review again while the same one never does. A node
-- claims a queued row, or a running one whose claim went stale (its node died), with one
-- conditional UPDATE, so a game is analysed by one node at a time. `requested_by` is the player
-- who asked (NULL when queued at the end of the game), for the per-player limit. `result` is
-- the per-ply review as JSON text.
CREATE TABLE analyses (
    game_id        TEXT NOT NULL PRIMARY KEY REFERENCES games (id),
    status         TEXT NOT NULL,
    engine         TEXT NOT NULL,
    requested_by   TEXT,
    progress_done  INTEGER NOT NULL DEFAULT 0,
    progress_total INTEGER NOT NULL DEFAULT 0,
    claimed_by     TEXT,
    claimed_at     BIGINT,
    result         TEXT,
    error          TEXT,
    created_at     BIGINT NOT NULL,
    finished_at    BIGINT
);

-- Work waiting or running (the sweep for orphaned rows), and a player's open requests.
CREATE INDEX analyses_open ON analyses (status, created_at);
CREATE INDEX analyses_requested ON analyses (requested_by, status);
