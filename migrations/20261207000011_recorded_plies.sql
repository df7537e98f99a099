-- How many of a game's first plies came from an imported record it continues (a record
-- continued against the computer): they are whoever's the record says, so they make no puzzles
-- for the player who took the seat. Continuations stored before this column have their record's
-- plies stored the moment the game was created.
ALTER TABLE games ADD COLUMN recorded_plies INTEGER NOT NULL DEFAULT 0;
UPDATE games SET recorded_plies =
    (SELECT COUNT(*) FROM moves m WHERE m.game_id = games.id AND m.played_at = games.created_at)
 WHERE mode = 'computer' AND imported = 0;
DELETE FROM puzzles
 WHERE EXISTS (SELECT 1 FROM games g
                WHERE g.id = puzzles.game_id AND puzzles.ply <= g.recorded_plies);
