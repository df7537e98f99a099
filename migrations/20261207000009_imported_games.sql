-- Imported games: finished records a player uploaded. Their moves are whoever's the record
-- says, so they stay off profiles, make no puzzles, and are reviewed only when no played game
-- waits. Games imported before the flag were stored finished the moment they were created, on
-- one device, with the importer in both seats; their puzzles were never the player's own.
ALTER TABLE games ADD COLUMN imported INTEGER NOT NULL DEFAULT 0;
UPDATE games SET imported = 1
 WHERE mode = 'same_device' AND status = 'finished' AND finished_at = created_at
   AND black_id = white_id;
DELETE FROM puzzles WHERE game_id IN (SELECT id FROM games WHERE imported = 1);

-- The client an open analysis was asked from (its IPv4 address or IPv6 /64), for the cap on
-- analyses waiting per address; cleared when the analysis ends.
ALTER TABLE analyses ADD COLUMN requested_from TEXT;
CREATE INDEX analyses_requested_from ON analyses (requested_from, status);
