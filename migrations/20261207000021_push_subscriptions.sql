-- Web Push subscriptions: where a browser of an account takes pushed notifications, its keys,
-- and the kinds of notification it asked for (comma-separated).
CREATE TABLE push_subscriptions (
    endpoint   TEXT NOT NULL PRIMARY KEY,
    player_id  TEXT NOT NULL REFERENCES players (id),
    p256dh     TEXT NOT NULL,
    auth       TEXT NOT NULL,
    kinds      TEXT NOT NULL,
    created_at BIGINT NOT NULL
);
CREATE INDEX push_subscriptions_player ON push_subscriptions (player_id);
