-- Version 29 (issue 49): an ingress event's id is its user's own. It was unique across the server, so
-- a sender who reused another user's id learned that it existed (its event got a fresh id) and the
-- duplicate key was logged. Events are now keyed by (user_key, event_id), and their decisions and
-- actions name the event by both.
ALTER TABLE ingress_decisions ADD COLUMN user_key VARCHAR(128);
UPDATE ingress_decisions SET user_key = (SELECT e.user_key FROM ingress_events e WHERE e.event_id = ingress_decisions.event_id);
ALTER TABLE ingress_decisions ALTER COLUMN user_key SET NOT NULL;
ALTER TABLE ingress_actions ADD COLUMN user_key VARCHAR(128);
UPDATE ingress_actions SET user_key = (SELECT e.user_key FROM ingress_events e WHERE e.event_id = ingress_actions.event_id);
ALTER TABLE ingress_actions ALTER COLUMN user_key SET NOT NULL;

ALTER TABLE ingress_decisions DROP CONSTRAINT ingress_decisions_event_fk;
ALTER TABLE ingress_actions DROP CONSTRAINT ingress_actions_event_fk;
ALTER TABLE ingress_events DROP CONSTRAINT ingress_events_pk;
ALTER TABLE ingress_events ADD CONSTRAINT ingress_events_pk PRIMARY KEY (user_key, event_id);
ALTER TABLE ingress_decisions ADD CONSTRAINT ingress_decisions_event_fk FOREIGN KEY (user_key, event_id)
    REFERENCES ingress_events (user_key, event_id);
ALTER TABLE ingress_actions ADD CONSTRAINT ingress_actions_event_fk FOREIGN KEY (user_key, event_id)
    REFERENCES ingress_events (user_key, event_id);

DROP INDEX ingress_decisions_event_idx;
CREATE INDEX ingress_decisions_event_idx ON ingress_decisions (user_key, event_id);
DROP INDEX ingress_actions_event_idx;
CREATE INDEX ingress_actions_event_idx ON ingress_actions (user_key, event_id);
