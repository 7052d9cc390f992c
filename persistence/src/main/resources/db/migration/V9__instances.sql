-- Version 9: the cluster's instances. Each start of an instance (its lease owner name) beats every
-- heartbeat period by the database's clock, so any instance can tell which are up, late (missed
-- their lease period: frozen, cut off or dead) or stopped — server/instances and the dashboard.
-- Rows whose last beat is a day old are forgotten.

CREATE TABLE instances (
    owner          VARCHAR(160) NOT NULL,
    instance_id    VARCHAR(128) NOT NULL,
    started_at     BIGINT       NOT NULL,
    heartbeat_at   BIGINT       NOT NULL,
    executing_runs INTEGER      NOT NULL,
    stopped_at     BIGINT,
    CONSTRAINT instances_pk PRIMARY KEY (owner)
);
