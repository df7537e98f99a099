-- Whether a live game is the computer standing in for an opponent the queue did not find: its
-- searches go before other computer games', also once the game is restored from the store.
ALTER TABLE games ADD COLUMN stand_in INTEGER NOT NULL DEFAULT 0;
