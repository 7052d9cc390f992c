-- Version 7, PostgreSQL only (H2 has no partial indexes and keeps V1's): the lane head and the
-- claimable poll look only at unfinished runs, a handful per thread, while finished runs pile up
-- by the thousand. Partial indexes hold the unfinished ones alone, so those lookups read a few
-- index entries instead of walking past every finished run (and the dead entries each state change
-- leaves behind); a run leaves them when it finishes.
DROP INDEX runs_thread_state_seq_idx;
DROP INDEX runs_state_thread_idx;
CREATE INDEX runs_unfinished_idx ON runs (thread_id, thread_seq) WHERE state IN ('queued', 'executing');
CREATE INDEX runs_queued_idx ON runs (thread_id) WHERE state = 'queued';
