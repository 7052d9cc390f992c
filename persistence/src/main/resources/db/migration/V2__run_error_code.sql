-- Version 2: a machine-readable reason next to a failed run's message
-- (cancelled, abandoned; null for an engine's own failure).
ALTER TABLE runs ADD COLUMN error_code VARCHAR(64);
