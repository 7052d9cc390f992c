-- Sub-agent delegation (issue 16, spec xml-pipeline-threads §7). path_registry holds every path a
-- delegation tree made: its UUID (minted once, so a replay after a crash finds the same one), its
-- segments (a JSON array, root first: never split on a separator), its lane and run, and its status.
-- A tree's root row (depth 0) keeps the tree's hop count and belongs to the outer unit of work's run
-- (root_run_id); the entry path (depth 1) is that run's handler. state holds what a handler's run kept
-- when it last asked for calls (an engine that cannot replay its work carries on from it). path_calls holds one slot per call
-- and listener: what a caller run waits for and, once in, the reply it gets (by call index).
-- path_journal is the append-only audit of mints, dispatches, deliveries, failures and dropped late replies.
CREATE TABLE path_registry (
    uuid          VARCHAR(36)  NOT NULL,
    session_root  VARCHAR(32)  NOT NULL,
    root_uuid     VARCHAR(36)  NOT NULL,
    root_run_id   VARCHAR(36)  NOT NULL,
    user_key      VARCHAR(128) NOT NULL,
    thread_key    VARCHAR(512) NOT NULL,
    segments      TEXT         NOT NULL,
    depth         INTEGER      NOT NULL,
    parent_uuid   VARCHAR(36),
    agent         VARCHAR(64)  NOT NULL,
    caller        VARCHAR(64),
    thread_id     BIGINT       NOT NULL,
    run_id        VARCHAR(36)  NOT NULL,
    status        VARCHAR(16)  NOT NULL,
    hops          INTEGER      NOT NULL,
    result_text   TEXT,
    state         TEXT,
    created_at    BIGINT       NOT NULL,
    closed_at     BIGINT,
    CONSTRAINT path_registry_pk PRIMARY KEY (uuid),
    CONSTRAINT path_registry_status_ck CHECK (status IN ('live', 'responded', 'completed', 'failed', 'timed_out',
        'cancelled'))
);
CREATE INDEX path_registry_root_run_idx ON path_registry (root_run_id);
CREATE INDEX path_registry_run_idx ON path_registry (run_id);
CREATE INDEX path_registry_parent_idx ON path_registry (parent_uuid);
CREATE INDEX path_registry_status_idx ON path_registry (status);

CREATE TABLE path_calls (
    caller_run_id VARCHAR(36)  NOT NULL,
    slot          INTEGER      NOT NULL,
    call_index    INTEGER      NOT NULL,
    caller_uuid   VARCHAR(36)  NOT NULL,
    caller_thread BIGINT       NOT NULL,
    root_uuid     VARCHAR(36)  NOT NULL,
    to_name       VARCHAR(256) NOT NULL,
    child_uuid    VARCHAR(36),
    from_name     VARCHAR(64),
    status        VARCHAR(16)  NOT NULL,
    code          VARCHAR(16),
    result_text   TEXT,
    deadline_at   BIGINT,
    created_at    BIGINT       NOT NULL,
    replied_at    BIGINT,
    CONSTRAINT path_calls_pk PRIMARY KEY (caller_run_id, slot),
    CONSTRAINT path_calls_status_ck CHECK (status IN ('pending', 'reply', 'ack', 'error'))
);
CREATE INDEX path_calls_child_idx ON path_calls (child_uuid);
CREATE INDEX path_calls_pending_idx ON path_calls (status, deadline_at);

CREATE TABLE path_journal (
    msg_id        VARCHAR(36)  NOT NULL,
    session_root  VARCHAR(32)  NOT NULL,
    uuid          VARCHAR(36)  NOT NULL,
    segments      TEXT         NOT NULL,
    from_name     VARCHAR(64),
    to_name       VARCHAR(256),
    payload_type  VARCHAR(32)  NOT NULL,
    status        VARCHAR(24)  NOT NULL,
    reason        TEXT,
    ts            BIGINT       NOT NULL,
    CONSTRAINT path_journal_pk PRIMARY KEY (msg_id)
);
CREATE INDEX path_journal_root_idx ON path_journal (session_root, ts);
