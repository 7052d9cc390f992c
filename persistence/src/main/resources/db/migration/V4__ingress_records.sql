-- Version 4: ingress records (holon-serve spec §14): every received event, the decision taken on
-- it and the action that followed, with their correlation keys. Dedupe keys are idempotency
-- records in message_ingest (source 'ingress'), so a duplicate never creates a second run.

CREATE TABLE ingress_events (
    event_id    VARCHAR(64)  NOT NULL,
    user_key    VARCHAR(128) NOT NULL,
    source      VARCHAR(64)  NOT NULL,
    type        VARCHAR(256) NOT NULL,
    repo        VARCHAR(256),
    dedupe_key  VARCHAR(512),
    session_key VARCHAR(512) NOT NULL,
    status      VARCHAR(16)  NOT NULL,
    run_id      VARCHAR(36),
    turn_id     VARCHAR(64),
    envelope    TEXT         NOT NULL,
    received_at BIGINT       NOT NULL,
    CONSTRAINT ingress_events_pk PRIMARY KEY (event_id),
    CONSTRAINT ingress_events_status_ck CHECK (status IN ('accepted', 'duplicate', 'deferred'))
);
CREATE INDEX ingress_events_user_received_idx ON ingress_events (user_key, received_at);
-- The event a finishing run was handed off for (final action, announcement).
CREATE INDEX ingress_events_run_idx ON ingress_events (run_id);

CREATE TABLE ingress_decisions (
    decision_id VARCHAR(64)  NOT NULL,
    event_id    VARCHAR(64)  NOT NULL,
    type        VARCHAR(32)  NOT NULL,
    reason      VARCHAR(256),
    skipped     BOOLEAN      NOT NULL,
    created_at  BIGINT       NOT NULL,
    CONSTRAINT ingress_decisions_pk PRIMARY KEY (decision_id),
    CONSTRAINT ingress_decisions_event_fk FOREIGN KEY (event_id) REFERENCES ingress_events (event_id)
);
CREATE INDEX ingress_decisions_event_idx ON ingress_decisions (event_id);

CREATE TABLE ingress_actions (
    action_id   VARCHAR(64)  NOT NULL,
    event_id    VARCHAR(64)  NOT NULL,
    status      VARCHAR(16)  NOT NULL,
    message     TEXT,
    run_id      VARCHAR(36),
    started_at  BIGINT       NOT NULL,
    ended_at    BIGINT,
    CONSTRAINT ingress_actions_pk PRIMARY KEY (action_id),
    CONSTRAINT ingress_actions_event_fk FOREIGN KEY (event_id) REFERENCES ingress_events (event_id)
);
CREATE INDEX ingress_actions_event_idx ON ingress_actions (event_id);
