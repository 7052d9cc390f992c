-- Version 22: retention (issue 38). One instance at a time prunes what has aged, in small batches,
-- claimed on its periodic_claims row like the other pruning passes.
INSERT INTO periodic_claims (name, owner, until_at) VALUES ('history-retention', NULL, 0);
-- A run's idempotency key goes with the run: found by its run (the key's foreign key made every
-- run deletion scan the keys without it). Messages without a key add nothing to it.
CREATE INDEX message_ingest_run_idx ON message_ingest (run_id);
-- The delegation journal ages by its own time.
CREATE INDEX path_journal_ts_idx ON path_journal (ts);
