-- Accounts: players who signed in with an OpenID provider (Google). An account is keyed by the
-- provider's issuer and subject, never by e-mail (which is not stored at all). The public name is
-- chosen after the first sign-in, so it starts NULL; `name_key` is its lower-case form, unique so
-- that names differ by more than case. Deleting an account clears its identity and name and keeps
-- its games, shown as a deleted player. NULLs never collide in a unique index, on either backend.
CREATE TABLE accounts (
    player_id   TEXT NOT NULL PRIMARY KEY REFERENCES players (id),
    issuer      TEXT,
    subject     TEXT,
    name        TEXT,
    name_key    TEXT,
    rating      DOUBLE PRECISION NOT NULL DEFAULT 1200.0,
    rated_games INTEGER NOT NULL DEFAULT 0,
    wins        INTEGER NOT NULL DEFAULT 0,
    draws       INTEGER NOT NULL DEFAULT 0,
    losses      INTEGER NOT NULL DEFAULT 0,
    created_at  BIGINT NOT NULL,
    deleted_at  BIGINT
);

CREATE UNIQUE INDEX accounts_identity ON accounts (issuer, subject);
CREATE UNIQUE INDEX accounts_name ON accounts (name_key);
CREATE INDEX accounts_leaderboard ON accounts (rating);

-- One row per side of each rated game: the rating before and after, and which of the player's
-- rated games it was (from 1). Written in the transaction that finishes the game, so a result is
-- rated exactly once; the unique number per player makes the order of a player's games explicit.
CREATE TABLE rating_changes (
    game_id     TEXT NOT NULL REFERENCES games (id),
    player_id   TEXT NOT NULL REFERENCES players (id),
    color       TEXT NOT NULL,
    game_number INTEGER NOT NULL,
    rating_before DOUBLE PRECISION NOT NULL,
    rating_after  DOUBLE PRECISION NOT NULL,
    at          BIGINT NOT NULL,
    PRIMARY KEY (game_id, player_id)
);

CREATE UNIQUE INDEX rating_changes_player ON rating_changes (player_id, game_number);
