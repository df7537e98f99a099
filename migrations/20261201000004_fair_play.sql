-- Deleted accounts' standings, kept for a cool-down under a one-way hash of their identity
-- (SHA-256 of issuer and subject; the identity itself is cleared on deletion), so that deleting
-- an account and signing in again brings the old rating back instead of a fresh 1,200.
CREATE TABLE deleted_identities (
    identity_hash TEXT NOT NULL PRIMARY KEY,
    rating        DOUBLE PRECISION NOT NULL,
    rated_games   INTEGER NOT NULL,
    wins          INTEGER NOT NULL,
    draws         INTEGER NOT NULL,
    losses        INTEGER NOT NULL,
    deleted_at    BIGINT NOT NULL
);

-- Rated games between the same two accounts in the last day are counted at each result.
CREATE INDEX rating_changes_recent ON rating_changes (player_id, at);

-- Sessions issued before `valid_after` no longer count for the player: signing out, deleting
-- the account or changing the name ends every session of that player, on every node.
CREATE TABLE session_revocations (
    player_id   TEXT NOT NULL PRIMARY KEY,
    valid_after BIGINT NOT NULL
);
CREATE INDEX session_revocations_recent ON session_revocations (valid_after);
