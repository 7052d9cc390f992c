-- The threads (lanes) the database-ceiling benchmark's runs go to; run after the schema migrations.
INSERT INTO threads (id, user_key, thread_key, created_at)
SELECT i, 'bench', 'db-bench-' || i, 0 FROM generate_series(1, :threads) AS i;
INSERT INTO lanes (thread_id, next_seq) SELECT i, 1 FROM generate_series(1, :threads) AS i;
