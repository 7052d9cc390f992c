-- Version 30 (issue 50): the lane's columns in a table of the lane's own.
-- A thread's lease and next run number were columns of threads, so two stores wrote that table:
-- the lane (lease, number) and the threads' store (runtime, workspace). Now a lane is a row of
-- lanes, keyed by its thread, which only the lane reads and writes; a thread's row is the
-- threads' store's alone. The lane's row is made with its thread's, in the same transaction.
CREATE TABLE lanes (
    thread_id     BIGINT       NOT NULL,
    next_seq      BIGINT       NOT NULL,
    lease_owner   VARCHAR(128),
    lease_until   BIGINT,
    lease_run_id  VARCHAR(36),
    lease_attempt INTEGER,
    CONSTRAINT lanes_pk PRIMARY KEY (thread_id)
);

INSERT INTO lanes (thread_id, next_seq, lease_owner, lease_until, lease_run_id, lease_attempt)
    SELECT id, next_seq, lease_owner, lease_until, lease_run_id, lease_attempt FROM threads;

-- Heartbeats renew by owner; the sweep looks for expired leases (as threads' indexes did).
CREATE INDEX lanes_lease_owner_idx ON lanes (lease_owner);
CREATE INDEX lanes_lease_until_idx ON lanes (lease_until);

DROP INDEX threads_lease_owner_idx;
DROP INDEX threads_lease_until_idx;
ALTER TABLE threads DROP COLUMN lease_owner;
ALTER TABLE threads DROP COLUMN lease_until;
ALTER TABLE threads DROP COLUMN lease_run_id;
ALTER TABLE threads DROP COLUMN lease_attempt;
ALTER TABLE threads DROP COLUMN next_seq;
