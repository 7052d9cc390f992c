-- Version 23 (issue 38): referential checks that cost the hot path and retention statements and
-- protected nothing the stores do not already guarantee.
-- Every run and turn insert made PostgreSQL look up and share-lock its thread row again ("SELECT 1
-- FROM threads ... FOR KEY SHARE"), two statements of a run's nineteen, though the lane has just
-- locked that very row FOR UPDATE to insert them, and thread rows are never deleted (retention
-- keeps them: docs/operations.md).
ALTER TABLE runs DROP CONSTRAINT runs_thread_fk;
ALTER TABLE turns DROP CONSTRAINT turns_thread_fk;
-- Every run retention deletes made it check twice that no idempotency key still names the run,
-- though retention deletes the run's key in the same transaction, just before it.
ALTER TABLE message_ingest DROP CONSTRAINT message_ingest_run_fk;
