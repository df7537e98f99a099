-- A revocation ends the sessions issued before `valid_after`; those expire at most 30 days after
-- it (a session lasts 30 days from issue), and with them the revocation's use: `expires_at` says
-- when, so that expired revocations are deleted instead of kept for ever. Rows written before
-- it existed expire 30 days (2,592,000,000 ms) after their `valid_after`.
ALTER TABLE session_revocations ADD COLUMN expires_at BIGINT NOT NULL DEFAULT 0;
UPDATE session_revocations SET expires_at = valid_after + 2592000000;
CREATE INDEX session_revocations_expiry ON session_revocations (expires_at);
