-- Who played each rated game, as the one-way hash of the account's identity (SHA-256 of issuer
-- and subject, as in deleted_identities): the daily cap on rated games between the same two
-- people counts by it, so deleting an account and signing in again (a new player id) does not
-- reset the cap. NULL on rows written before it existed.
ALTER TABLE rating_changes ADD COLUMN person TEXT;
CREATE INDEX rating_changes_person ON rating_changes (person, at);
