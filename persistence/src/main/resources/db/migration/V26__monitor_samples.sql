-- Version 26: what each instance did, every few seconds, for the dashboard's charts (issue 40).

-- One row per instance (owner: its name and start) and sample. The counts are of the interval that
-- ends at sampled_at (interval_ms long); the latencies are that interval's quantiles (NULL: no run
-- ended); the gauges were read at sampled_at (runs_queued NULL: the database did not answer).
-- Rows older than the monitor's retention are deleted by the instances.
CREATE TABLE monitor_samples (
    owner                  VARCHAR(128) NOT NULL,
    instance               VARCHAR(128) NOT NULL,
    sampled_at             BIGINT       NOT NULL,
    interval_ms            INTEGER      NOT NULL,
    runs_succeeded         BIGINT       NOT NULL,
    runs_failed            BIGINT       NOT NULL,
    latency_p50_ms         BIGINT,
    latency_p99_ms         BIGINT,
    messages_accepted      BIGINT       NOT NULL,
    runs_queued            BIGINT,
    runs_executing         INTEGER      NOT NULL,
    subscribers            INTEGER      NOT NULL,
    webhooks_delivered     BIGINT       NOT NULL,
    webhooks_not_delivered BIGINT       NOT NULL,
    ingress_events         BIGINT       NOT NULL,
    CONSTRAINT monitor_samples_pk PRIMARY KEY (owner, sampled_at)
);
CREATE INDEX monitor_samples_at_idx ON monitor_samples (sampled_at);
