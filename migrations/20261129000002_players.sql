-- People who have used the site: guests today (the id lives in their session cookie), accounts
-- later. Games keep a copy of the name each side played under, so a rename does not rewrite
-- history.
CREATE TABLE players (
    id           TEXT NOT NULL PRIMARY KEY,
    nickname     TEXT NOT NULL,
    kind         TEXT NOT NULL DEFAULT 'guest',
    created_at   BIGINT NOT NULL,
    last_seen_at BIGINT NOT NULL
);
