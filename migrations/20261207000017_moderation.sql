-- Trust and safety: moderators, reports, sanctions with their refunds, the moderators' log,
-- blocks and the history of public names.

-- Accounts that may moderate, given and taken by the server binary's `moderators` command.
CREATE TABLE moderators (
    player_id TEXT NOT NULL PRIMARY KEY REFERENCES players (id),
    added_at  BIGINT NOT NULL
);

-- What players report, and what the reviews flag on their own (`reporter_id` NULL, `evidence`
-- the numbers as JSON). `status` is open, acted_on (a sanction followed) or dismissed. A
-- reporter has one open report per target.
CREATE TABLE reports (
    id          TEXT NOT NULL PRIMARY KEY,
    reporter_id TEXT,
    target_id   TEXT NOT NULL REFERENCES players (id),
    target_name TEXT NOT NULL,
    game_id     TEXT REFERENCES games (id),
    reason      TEXT NOT NULL,
    details     TEXT NOT NULL,
    evidence    TEXT,
    status      TEXT NOT NULL,
    created_at  BIGINT NOT NULL,
    closed_at   BIGINT
);
CREATE UNIQUE INDEX reports_one_open ON reports (reporter_id, target_id)
    WHERE status = 'open';
CREATE INDEX reports_queue ON reports (status, created_at);
CREATE INDEX reports_target ON reports (target_id, created_at);
CREATE INDEX reports_reporter ON reports (reporter_id, created_at);

-- Sanctions on accounts: engine (label, off the leaderboards, no ranked play, refunds), name
-- (the public name reset) or closed (no sign-in). Lifting one keeps the row.
CREATE TABLE sanctions (
    id            TEXT NOT NULL PRIMARY KEY,
    player_id     TEXT NOT NULL REFERENCES players (id),
    kind          TEXT NOT NULL,
    reason        TEXT NOT NULL,
    previous_name TEXT,
    created_at    BIGINT NOT NULL,
    created_by    TEXT NOT NULL,
    lifted_at     BIGINT,
    lifted_by     TEXT
);
CREATE INDEX sanctions_player ON sanctions (player_id, created_at);

-- Rating points given back to the opponents of an account sanctioned for engine assistance,
-- one row per game; `withdrawn_at` is set when the sanction is lifted and the points taken back.
CREATE TABLE rating_refunds (
    sanction_id  TEXT NOT NULL REFERENCES sanctions (id),
    player_id    TEXT NOT NULL REFERENCES players (id),
    game_id      TEXT NOT NULL REFERENCES games (id),
    pool         TEXT NOT NULL,
    points       DOUBLE PRECISION NOT NULL,
    at           BIGINT NOT NULL,
    withdrawn_at BIGINT,
    PRIMARY KEY (sanction_id, game_id, player_id)
);
CREATE INDEX rating_refunds_player ON rating_refunds (player_id, at);

-- Every moderator's action, appended and never changed: who, what, whom, why, when.
-- `subject` names what the action was on (a sanction or report id) for undoing it.
CREATE TABLE moderation_log (
    id           TEXT NOT NULL PRIMARY KEY,
    at           BIGINT NOT NULL,
    moderator_id TEXT,
    action       TEXT NOT NULL,
    target_id    TEXT,
    subject      TEXT,
    reason       TEXT NOT NULL
);
CREATE INDEX moderation_log_at ON moderation_log (at);

-- Who blocked whom: never paired, no challenges, hidden from the blocker's lobby.
CREATE TABLE blocks (
    blocker_id   TEXT NOT NULL REFERENCES players (id),
    blocked_id   TEXT NOT NULL REFERENCES players (id),
    blocked_name TEXT NOT NULL,
    created_at   BIGINT NOT NULL,
    PRIMARY KEY (blocker_id, blocked_id)
);
CREATE INDEX blocks_blocked ON blocks (blocked_id);

-- Every public name an account has had, from when to when (NULL: still its name).
CREATE TABLE name_history (
    player_id  TEXT NOT NULL REFERENCES players (id),
    name       TEXT NOT NULL,
    from_at    BIGINT NOT NULL,
    until_at   BIGINT
);
CREATE INDEX name_history_player ON name_history (player_id, from_at);
INSERT INTO name_history (player_id, name, from_at)
    SELECT player_id, name, created_at FROM accounts WHERE name IS NOT NULL AND deleted_at IS NULL;
