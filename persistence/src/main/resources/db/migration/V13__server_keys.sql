-- Version 13: keys the server makes once and every instance shares. The first is the key that
-- seals the compaction items of POST /responses/compact (AES-GCM), so any instance opens a
-- compaction another one made. Created on first use (INSERT ... ON CONFLICT DO NOTHING); an
-- operator may configure the key instead (SWITCHBOARD_RESPONSES_COMPACTION_KEY).

CREATE TABLE server_keys (
    name       VARCHAR(64)  PRIMARY KEY,
    secret     VARCHAR(256) NOT NULL,
    created_at BIGINT       NOT NULL
);
