-- Rating pools: each ranked time control rates its games apart (30s, blitz, rapid, daily; the
-- keys of `live::Pool`). An account's standing in a pool is a row of `ratings`, made when it
-- plays its first rated game there; a pool without a row stands at 1,200 with no games. Every
-- rating from before pools was made at 30 s a move, so it moves into the 30s pool unchanged,
-- with its history.
CREATE TABLE ratings (
    player_id   TEXT NOT NULL REFERENCES players (id),
    pool        TEXT NOT NULL,
    rating      DOUBLE PRECISION NOT NULL,
    rated_games INTEGER NOT NULL DEFAULT 0,
    wins        INTEGER NOT NULL DEFAULT 0,
    draws       INTEGER NOT NULL DEFAULT 0,
    losses      INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (player_id, pool)
);
CREATE INDEX ratings_leaderboard ON ratings (pool, rating);

INSERT INTO ratings (player_id, pool, rating, rated_games, wins, draws, losses)
    SELECT player_id, '30s', rating, rated_games, wins, draws, losses FROM accounts
    WHERE rated_games > 0 OR rating <> 1200.0;

DROP INDEX accounts_leaderboard;
ALTER TABLE accounts DROP COLUMN rating;
ALTER TABLE accounts DROP COLUMN rated_games;
ALTER TABLE accounts DROP COLUMN wins;
ALTER TABLE accounts DROP COLUMN draws;
ALTER TABLE accounts DROP COLUMN losses;

-- Each change records its pool; a player's rated games are numbered within each pool.
ALTER TABLE rating_changes ADD COLUMN pool TEXT NOT NULL DEFAULT '30s';
DROP INDEX rating_changes_player;
CREATE UNIQUE INDEX rating_changes_player ON rating_changes (player_id, pool, game_number);

-- A deleted account's standing is kept per pool for the cool-down, under the one-way hash of
-- its identity (as `deleted_identities` kept its one rating).
CREATE TABLE deleted_standings (
    identity_hash TEXT NOT NULL,
    pool          TEXT NOT NULL,
    rating        DOUBLE PRECISION NOT NULL,
    rated_games   INTEGER NOT NULL,
    wins          INTEGER NOT NULL,
    draws         INTEGER NOT NULL,
    losses        INTEGER NOT NULL,
    deleted_at    BIGINT NOT NULL,
    PRIMARY KEY (identity_hash, pool)
);
INSERT INTO deleted_standings
    (identity_hash, pool, rating, rated_games, wins, draws, losses, deleted_at)
    SELECT identity_hash, '30s', rating, rated_games, wins, draws, losses, deleted_at
    FROM deleted_identities;
DROP TABLE deleted_identities;
