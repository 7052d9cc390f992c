-- Auth mode (issue 15, spec §9): a chat thread may wait for the user's credential. pending_auth
-- holds what it waits for (JSON: request id, credential name, when it was asked, the tool calls
-- left); chat_credentials the credentials users gave, sealed with a key that is not in the
-- database (AES-GCM, bound to user and name): no column ever holds a secret in clear.
ALTER TABLE chat_threads ADD COLUMN pending_auth TEXT;

CREATE TABLE chat_credentials (
    user_key   VARCHAR(128) NOT NULL,
    name       VARCHAR(64)  NOT NULL,
    sealed     TEXT         NOT NULL,
    updated_at BIGINT       NOT NULL,
    CONSTRAINT chat_credentials_pk PRIMARY KEY (user_key, name)
);
