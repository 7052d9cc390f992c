-- Version 28: read-only links to a thread's transcript (jagc's POST /v1/threads/{key}/share, issue 49).
-- A link's secret is never stored: token_hash is the SHA-256 (hex) of the token its URL carries, so
-- whoever reads this table cannot open a link. A link shows the thread's items up to up_to_seq, the
-- newest when it was made, and nothing said later. Revoking a thread's links deletes their rows.
CREATE TABLE thread_shares (
    token_hash VARCHAR(64)  NOT NULL,
    user_key   VARCHAR(128) NOT NULL,
    thread_id  BIGINT       NOT NULL,
    thread_key VARCHAR(512) NOT NULL,
    up_to_seq  BIGINT       NOT NULL,
    created_at BIGINT       NOT NULL,
    CONSTRAINT thread_shares_pk PRIMARY KEY (token_hash)
);
CREATE INDEX thread_shares_thread_idx ON thread_shares (thread_id);
