-- One pass of the notification sequencer (NotificationLedger.stamp): lock the sequencer row, move
-- up to 1000 committed outbox rows into the log with the next seqs, advance the sequencer.
BEGIN;
SELECT last_seq FROM notification_sequencer WHERE id = 1 FOR UPDATE \gset
WITH pending AS (SELECT id FROM notification_outbox ORDER BY id LIMIT 1000),
     moved AS (DELETE FROM notification_outbox o USING pending p WHERE o.id = p.id
               RETURNING o.id, o.user_key, o.thread_key, o.method, o.params, o.created_at)
INSERT INTO notifications (seq, user_key, thread_key, method, params, created_at)
  SELECT :last_seq + row_number() OVER (ORDER BY id), user_key, thread_key, method, params, created_at FROM moved;
UPDATE notification_sequencer SET last_seq = (SELECT COALESCE(MAX(seq), 0) FROM notifications) WHERE id = 1;
COMMIT;
