-- Version 5: ingress deferral while paused, the records API's paging, and runtime counters derived
-- from the events journal instead of kept twice.

-- Deferred events are released in arrival order on resume; duplicates of a held event are found by
-- key before the event has a run.
CREATE INDEX ingress_events_user_status_idx ON ingress_events (user_key, status, received_at);
CREATE INDEX ingress_events_user_dedupe_idx ON ingress_events (user_key, dedupe_key);

-- GET /v1/decisions and /v1/actions page by time.
CREATE INDEX ingress_decisions_created_idx ON ingress_decisions (created_at, decision_id);
CREATE INDEX ingress_actions_started_idx ON ingress_actions (started_at, action_id);

-- events_processed and last_event_at are counted from ingress_events (accepted events).
ALTER TABLE serve_runtime DROP COLUMN events_processed;
ALTER TABLE serve_runtime DROP COLUMN last_event_at;
