-- Version 27: internal threads (issue 40). A list of threads shows people's and integrations' threads
-- unless asked for internal ones: the chains of POST /v1/responses (keys 'responses/...') and the lanes
-- of delegation's paths (owned by the server's user '~agents'). The verdict is made when a thread is
-- created (ThreadKinds in ejb-core, the same rule as the UPDATE below) and stored, so that a page of the
-- listed threads is one range of the index below however many internal threads a user has.
ALTER TABLE threads ADD COLUMN is_internal BOOLEAN DEFAULT FALSE NOT NULL;
UPDATE threads SET is_internal = TRUE WHERE thread_key LIKE 'responses/%' OR user_key LIKE '~%';
CREATE INDEX threads_user_internal_key_idx ON threads (user_key, is_internal, thread_key);
