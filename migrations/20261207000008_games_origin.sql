-- The client address (its key: an IPv4 address or an IPv6 /64) a game was started from, while
-- it is live: a game restored from the store is scheduled and budgeted under the address that
-- started it, not a key of its own. Cleared when the game ends, so no address outlives its game.
ALTER TABLE games ADD COLUMN origin TEXT;
-- The budgets count a client's games in progress on every node from here.
CREATE INDEX games_live_origin ON games (origin) WHERE status = 'live';
