-- Switchboard schema, version 1: threads (lanes), runs (turns) and idempotency records.
-- Portable SQL: the same script runs on PostgreSQL (production, tests) and H2 (embedded default).
-- Times are epoch milliseconds (UTC) so that lease arithmetic is identical on both databases.

-- EclipseLink treats each value as the top of a block of 50, so the first value is 50.
CREATE SEQUENCE thread_id_seq START WITH 50 INCREMENT BY 50;

CREATE TABLE threads (
    id            BIGINT       NOT NULL,
    user_key      VARCHAR(128) NOT NULL,
    thread_key    VARCHAR(512) NOT NULL,
    next_seq      BIGINT       NOT NULL,
    lease_owner   VARCHAR(128),
    lease_until   BIGINT,
    lease_run_id  VARCHAR(36),
    created_at    BIGINT       NOT NULL,
    CONSTRAINT threads_pk PRIMARY KEY (id),
    CONSTRAINT threads_user_thread_uk UNIQUE (user_key, thread_key)
);

-- Heartbeats renew by owner; the sweep looks for expired leases.
CREATE INDEX threads_lease_owner_idx ON threads (lease_owner);
CREATE INDEX threads_lease_until_idx ON threads (lease_until);

CREATE TABLE runs (
    run_id            VARCHAR(36)  NOT NULL,
    thread_id         BIGINT       NOT NULL,
    thread_seq        BIGINT       NOT NULL,
    user_key          VARCHAR(128) NOT NULL,
    thread_key        VARCHAR(512) NOT NULL,
    source            VARCHAR(256) NOT NULL,
    external_user_key VARCHAR(256),
    delivery_mode     VARCHAR(16)  NOT NULL,
    state             VARCHAR(16)  NOT NULL,
    input_text        TEXT         NOT NULL,
    output_json       TEXT,
    error_message     TEXT,
    attempt           INTEGER      NOT NULL,
    claimed_by        VARCHAR(128),
    payload_hash      VARCHAR(64)  NOT NULL,
    created_at        BIGINT       NOT NULL,
    started_at        BIGINT,
    finished_at       BIGINT,
    updated_at        BIGINT       NOT NULL,
    CONSTRAINT runs_pk PRIMARY KEY (run_id),
    CONSTRAINT runs_thread_fk FOREIGN KEY (thread_id) REFERENCES threads (id),
    CONSTRAINT runs_thread_seq_uk UNIQUE (thread_id, thread_seq),
    CONSTRAINT runs_delivery_mode_ck CHECK (delivery_mode IN ('steer', 'followUp')),
    CONSTRAINT runs_state_ck CHECK (state IN ('queued', 'executing', 'succeeded', 'failed'))
);

-- Lane head: the oldest unfinished run of a thread.
CREATE INDEX runs_thread_state_seq_idx ON runs (thread_id, state, thread_seq);
-- Dispatcher scan for threads with queued work.
CREATE INDEX runs_state_thread_idx ON runs (state, thread_id);
CREATE INDEX runs_created_at_idx ON runs (created_at);

CREATE TABLE message_ingest (
    user_key        VARCHAR(128) NOT NULL,
    source          VARCHAR(256) NOT NULL,
    idempotency_key VARCHAR(512) NOT NULL,
    run_id          VARCHAR(36)  NOT NULL,
    payload_hash    VARCHAR(64)  NOT NULL,
    created_at      BIGINT       NOT NULL,
    CONSTRAINT message_ingest_pk PRIMARY KEY (user_key, source, idempotency_key),
    CONSTRAINT message_ingest_run_fk FOREIGN KEY (run_id) REFERENCES runs (run_id)
);
