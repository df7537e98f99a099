-- A clocked game's time control as players write it (30s, 3+2, 2d); NULL for games without a
-- clock, and for clocked games stored before controls could be chosen (their move_time_ms says
-- how long each move had). A friend room's control is that of every game played in it.
ALTER TABLE games ADD COLUMN time_control TEXT;
ALTER TABLE rooms ADD COLUMN time_control TEXT;
