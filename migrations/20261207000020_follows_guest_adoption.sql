-- Players following others, and guests whose history moved to an account.

-- `follower_id` follows `followed_id` (both accounts).
CREATE TABLE follows (
    follower_id TEXT NOT NULL REFERENCES players (id),
    followed_id TEXT NOT NULL REFERENCES players (id),
    created_at  BIGINT NOT NULL,
    PRIMARY KEY (follower_id, followed_id)
);
CREATE INDEX follows_followed ON follows (followed_id);

-- The account a guest's finished games and puzzles moved to when the guest signed in; set
-- once, so they move once.
ALTER TABLE players ADD COLUMN merged_into TEXT;
