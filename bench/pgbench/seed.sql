-- The threads (lanes) the database-ceiling benchmark's runs go to; run after the schema migrations.
INSERT INTO threads (id, user_key, thread_key, next_seq, created_at)
SELECT i, 'bench', 'db-bench-' || i, 1, 0 FROM generate_series(1, :threads) AS i;
