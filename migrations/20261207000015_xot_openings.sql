-- The XOT opening a game started from (its eight plies, as `d3 c5 …`), NULL for a game from
-- the standard start played from its first move. The opening's plies are the game's first
-- stored moves.
ALTER TABLE games ADD COLUMN opening TEXT;
