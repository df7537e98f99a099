-- Whether a friend room's games start from XOT openings (its first game draws one; rematches
-- keep it).
ALTER TABLE rooms ADD COLUMN xot INTEGER NOT NULL DEFAULT 0;
