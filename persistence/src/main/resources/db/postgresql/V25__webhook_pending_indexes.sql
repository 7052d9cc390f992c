-- Version 25, PostgreSQL only (H2 has no partial indexes and keeps V24's): finding the messages due
-- looks only at pending ones — one per thread of an endpoint at a time, a handful — while delivered
-- ones pile up for the retention's 30 days. Partial indexes hold the pending ones alone.
CREATE INDEX webhook_messages_pending_lane_idx ON webhook_messages (endpoint_id, lane, id) WHERE state = 'pending';
CREATE INDEX webhook_messages_pending_due_idx ON webhook_messages (due_at) WHERE state = 'pending';
