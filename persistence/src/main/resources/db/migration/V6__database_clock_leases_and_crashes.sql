-- Version 6: lanes that stay exclusive when an owner is late.
-- Lease times are written and compared with the database's clock (never an instance's), so the
-- lease also names the attempt it was granted to: a renewal or a finish must match it exactly.
ALTER TABLE threads ADD COLUMN lease_attempt INTEGER;

-- Crashed attempts (leases that expired while executing) are counted apart from the attempt
-- number, which stays the fencing token: a graceful hand-back is an attempt, not a crash, and
-- switchboard.lanes.max-attempts limits crashes only.
ALTER TABLE runs ADD COLUMN crashes INTEGER DEFAULT 0 NOT NULL;

-- The highest seq pruned from the notification log: a subscriber resuming from before it is told
-- of the gap instead of silently missing what was deleted.
ALTER TABLE notification_sequencer ADD COLUMN pruned_through BIGINT DEFAULT 0 NOT NULL;
