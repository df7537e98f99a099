-- Challenges between accounts, and the notifications an account keeps for 30 days.

-- One account asks another to play. `time_control` NULL is the site's default; `colour` is
-- the one the challenger asked for (random, black, white). `status` is open, accepted,
-- declined or cancelled; an open challenge past `expires_at` has expired. `game_id` is the
-- game an accepted challenge started.
CREATE TABLE challenges (
    id            TEXT NOT NULL PRIMARY KEY,
    challenger_id TEXT NOT NULL REFERENCES players (id),
    challenged_id TEXT NOT NULL REFERENCES players (id),
    time_control  TEXT,
    colour        TEXT NOT NULL,
    rated         INTEGER NOT NULL,
    xot           INTEGER NOT NULL,
    status        TEXT NOT NULL,
    created_at    BIGINT NOT NULL,
    expires_at    BIGINT NOT NULL,
    closed_at     BIGINT,
    game_id       TEXT
);
CREATE INDEX challenges_sent ON challenges (challenger_id, status, expires_at);
CREATE INDEX challenges_received ON challenges (challenged_id, status, expires_at);

-- What an account is told: `kind` (challenge_received, challenge_accepted, ...), `data` as
-- JSON, `read_at` once read.
CREATE TABLE notifications (
    id         TEXT NOT NULL PRIMARY KEY,
    player_id  TEXT NOT NULL REFERENCES players (id),
    kind       TEXT NOT NULL,
    data       TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    read_at    BIGINT
);
CREATE INDEX notifications_player ON notifications (player_id, created_at);
