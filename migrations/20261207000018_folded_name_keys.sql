-- Public names are unique among look-alikes: `name_key` is now the name folded (lower case, the
-- digit 0 as the letter o, and 1, i and l as l), no longer just lower case, so `Ann0` and `Anno`,
-- or `Bill` and `B1ll`, are one name. Names are ASCII, so for those already chosen the fold is
-- lower() and these replace() calls, written the same on PostgreSQL and SQLite.
--
-- Names chosen before may already be look-alikes of each other, and the unique index would refuse
-- folding both keys. In each group of accounts whose keys fold alike, one account takes the folded
-- key: the one that already has it, if any (its name has no 0, 1 or i), otherwise the oldest, by
-- created_at then player_id. The others keep their lower-case key as it was, so the migration
-- never fails: they keep their name and their profile is found by it, and as long as the folded
-- key is held, a name newly chosen that looks like theirs is refused. Keys of deleted accounts are
-- NULL and stay so.
UPDATE accounts
SET name_key = replace(replace(replace(lower(name_key), '0', 'o'), '1', 'l'), 'i', 'l')
WHERE name_key IS NOT NULL
  AND name_key <> replace(replace(replace(lower(name_key), '0', 'o'), '1', 'l'), 'i', 'l')
  AND NOT EXISTS (
      SELECT 1 FROM accounts AS other
      WHERE other.name_key IS NOT NULL
        AND other.player_id <> accounts.player_id
        AND replace(replace(replace(lower(other.name_key), '0', 'o'), '1', 'l'), 'i', 'l')
            = replace(replace(replace(lower(accounts.name_key), '0', 'o'), '1', 'l'), 'i', 'l')
        AND (other.name_key = replace(replace(replace(lower(other.name_key), '0', 'o'), '1', 'l'), 'i', 'l')
             OR other.created_at < accounts.created_at
             OR (other.created_at = accounts.created_at AND other.player_id < accounts.player_id))
  );
