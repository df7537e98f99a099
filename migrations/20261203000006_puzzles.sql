-- Puzzles from a player's own games: a position where they lost several discs and one move is
-- clearly best, made when the game's analysis is done. The id is the game's id and the ply of
-- the mistake (`k7Hq2mXp9R-23`), so analysing a game again adds no puzzle twice. `position` is
-- the position before the mistake (64 squares and the side to move), `solution` the best move,
-- `move_values` every legal move's value as JSON text, for checking an answer without the
-- engine. `attempts` and `solved_at` are the player's.
CREATE TABLE puzzles (
    id           TEXT NOT NULL PRIMARY KEY,
    player_id    TEXT NOT NULL,
    game_id      TEXT NOT NULL REFERENCES games (id),
    ply          INTEGER NOT NULL,
    position     TEXT NOT NULL,
    played       TEXT NOT NULL,
    loss         INTEGER NOT NULL,
    solution     TEXT NOT NULL,
    move_values  TEXT NOT NULL,
    attempts     INTEGER NOT NULL DEFAULT 0,
    solved_at    BIGINT,
    created_at   BIGINT NOT NULL
);

-- A player's puzzles, unsolved first.
CREATE INDEX puzzles_player ON puzzles (player_id, solved_at, created_at);
