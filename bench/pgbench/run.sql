-- One run as Switchboard's hot path sends it to PostgreSQL (the statements pg_stat_statements
-- counts during `scripts/bench.sh echo0`, the plain-JDBC ones of LaneRows): the ingest transaction,
-- which inserts its run started into the idle lane, then the finish transaction. Notifications go
-- to the outbox; stamp.sql sequences them. (The ids and the time, which the server makes itself,
-- are made by one extra SELECT in the ingest.)
\set tid random(1, :threads)
BEGIN;
SELECT gen_random_uuid() AS run_id, 'turn_' || md5(random()::text) AS turn_id,
       (extract(epoch FROM clock_timestamp()) * 1000)::bigint AS now_ms \gset
SELECT l.next_seq, CAST(EXTRACT(EPOCH FROM CURRENT_TIMESTAMP) * 1000 AS BIGINT) AS db_now,
       (SELECT engine FROM threads t WHERE t.id = l.thread_id), (SELECT model_id FROM threads t WHERE t.id = l.thread_id),
       (SELECT thinking_level FROM threads t WHERE t.id = l.thread_id),
       (SELECT workspace_head FROM threads t WHERE t.id = l.thread_id)
  FROM lanes l WHERE l.thread_id = :tid FOR UPDATE \gset
SELECT r.run_id, r.thread_id, r.thread_seq, r.user_key, r.thread_key, r.source, r.state, r.input_text,
       r.delivery_mode, r.turn_id, r.attempt, r.crashes, r.claimed_by, r.created_at, t.state, t.started_at,
       t.merged_into, (SELECT count(*) FROM runs o WHERE o.turn_id = r.turn_id)
  FROM runs r LEFT JOIN turns t ON t.turn_id = r.turn_id
  WHERE r.thread_id = :tid AND r.state IN ('queued', 'executing') AND r.thread_seq > 0
  ORDER BY r.thread_seq FETCH FIRST 1 ROWS ONLY;
INSERT INTO turns (turn_id, user_key, thread_id, thread_key, state, started_at)
  VALUES (:turn_id, 'bench', :tid, 'db-bench', 'active', :now_ms);
INSERT INTO runs (run_id, thread_id, thread_seq, user_key, thread_key, source, external_user_key, delivery_mode,
    state, input_text, input_json, turn_id, attempt, crashes, claimed_by, payload_hash, created_at, started_at,
    updated_at)
  VALUES (:run_id, :tid, :next_seq, 'bench', 'db-bench', 'api', NULL, 'followUp', 'executing', 'bench message', NULL,
    :turn_id, 1, 0, 'bench-owner', 'a3f1c2e4b5d6a7f8091a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f70', :now_ms,
    :now_ms, :now_ms);
UPDATE lanes SET lease_owner = 'bench-owner', lease_until = CAST(:db_now AS BIGINT) + 15000, lease_run_id = :run_id,
    lease_attempt = 1, next_seq = CAST(:next_seq AS BIGINT) + 1 WHERE thread_id = :tid;
INSERT INTO notification_outbox (user_key, thread_key, method, params, created_at) VALUES
  ('bench', 'db-bench', 'turn/started', '{"turn_id":"t","type":"started","state":"active","thread_id":"db-bench","started_at":"2026-11-25T00:00:00Z"}', :now_ms),
  ('bench', 'db-bench', 'item/created', '{"item_id":"i","type":"created","status":"active","content":{"type":"message","role":"user","content":[{"type":"input_text","text":"bench message"}]},"timestamp":"2026-11-25T00:00:00Z","thread_id":"db-bench","turn_id":"t"}', :now_ms),
  ('bench', 'db-bench', 'turn/progress', '{"turn_id":"t","thread_id":"db-bench","state":"running","message":"Understanding request and scanning relevant code: interactive user request","event_id":"r","updated_at":"2026-11-25T00:00:00Z","elapsed_ms":0}', :now_ms);
COMMIT;
BEGIN;
SELECT l.thread_id, l.lease_owner, l.lease_until, l.lease_run_id, l.lease_attempt, l.next_seq,
       CAST(EXTRACT(EPOCH FROM CURRENT_TIMESTAMP) * 1000 AS BIGINT),
       (SELECT engine FROM threads t WHERE t.id = l.thread_id), (SELECT model_id FROM threads t WHERE t.id = l.thread_id),
       (SELECT thinking_level FROM threads t WHERE t.id = l.thread_id),
       (SELECT workspace_head FROM threads t WHERE t.id = l.thread_id)
  FROM lanes l WHERE l.thread_id = :tid FOR UPDATE;
SELECT r.run_id, r.thread_id, r.thread_seq, r.user_key, r.thread_key, r.source, r.state, r.input_text,
       r.delivery_mode, r.turn_id, r.attempt, r.crashes, r.claimed_by, r.created_at, t.state, t.started_at,
       t.merged_into, (SELECT count(*) FROM runs o WHERE o.turn_id = r.turn_id)
  FROM runs r LEFT JOIN turns t ON t.turn_id = r.turn_id
  WHERE r.thread_id = :tid AND r.state IN ('queued', 'executing') AND r.thread_seq > 0
  ORDER BY r.thread_seq FETCH FIRST 2 ROWS ONLY;
UPDATE runs SET state = 'succeeded', output_json = '{"text":"bench message"}', error_code = NULL, error_message = NULL,
    finished_at = :now_ms, updated_at = :now_ms WHERE run_id = :run_id AND state IN ('queued', 'executing');
UPDATE turns SET state = 'completed', outcome = 'completed', message = 'bench message', ended_at = :now_ms
  WHERE turn_id = :turn_id AND state = 'active';
UPDATE lanes SET lease_owner = NULL, lease_until = NULL, lease_run_id = NULL, lease_attempt = NULL,
    next_seq = next_seq WHERE thread_id = :tid; -- the server binds the value it read under the lock
INSERT INTO notification_outbox (user_key, thread_key, method, params, created_at) VALUES
  ('bench', 'db-bench', 'item/created', '{"item_id":"i","type":"created","status":"completed","content":{"type":"message","role":"assistant","content":[{"type":"text","text":"bench message"}]},"timestamp":"2026-11-25T00:00:00Z","thread_id":"db-bench","turn_id":"t"}', :now_ms),
  ('bench', 'db-bench', 'turn/completed', '{"turn_id":"t","type":"completed","state":"completed","thread_id":"db-bench","started_at":"2026-11-25T00:00:00Z","completed_at":"2026-11-25T00:00:00Z","message":"bench message"}', :now_ms),
  ('bench', 'db-bench', 'turn/progress', '{"turn_id":"t","thread_id":"db-bench","state":"completed","message":"done","updated_at":"2026-11-25T00:00:00Z","elapsed_ms":0}', :now_ms);
COMMIT;
