-- Version 14: people's conversations through the chat gateway (IronClaw's session model).
-- One session per user: the primary key decides a race between instances, and the session row is
-- the lock under which a user's thread keys are resolved. A session's threads are ordinary threads
-- (threads.thread_key = the chat thread's UUID, so their turns are runs in lanes); chat_threads
-- adds who owns the UUID and the channel that created it. A channel's own thread ids map to threads
-- through chat_thread_keys; external_key is '' for an absent id and '=' + the id for a present
-- one, so an absent id and an empty one are different keys. chat_threads.undo holds the thread's
-- undo and redo checkpoints (JSON), each a context window; chat_threads.pending the tool approval
-- the thread waits for (JSON); chat_sessions.auto_approved the tools the user said "always" to.
--
-- thread_contexts: which of a thread's items its engine is given (JSON: closed ranges of item seqs
-- and the seq from which every newer item is in), for threads whose context was changed by undo,
-- redo, compaction or clear; a thread without a row sees all its items.

CREATE TABLE chat_sessions (
    user_key       VARCHAR(128) NOT NULL,
    session_id     VARCHAR(36)  NOT NULL,
    active_thread  VARCHAR(36),
    auto_approved  TEXT,
    created_at     BIGINT       NOT NULL,
    last_active_at BIGINT       NOT NULL,
    CONSTRAINT chat_sessions_pk PRIMARY KEY (user_key)
);

CREATE TABLE chat_threads (
    thread_id      VARCHAR(36)  NOT NULL,
    user_key       VARCHAR(128) NOT NULL,
    source_channel VARCHAR(64)  NOT NULL,
    title          VARCHAR(100),
    undo           TEXT,
    pending        TEXT,
    created_at     BIGINT       NOT NULL,
    updated_at     BIGINT       NOT NULL,
    CONSTRAINT chat_threads_pk PRIMARY KEY (thread_id)
);
CREATE INDEX chat_threads_user_idx ON chat_threads (user_key, updated_at);

CREATE TABLE chat_thread_keys (
    user_key     VARCHAR(128) NOT NULL,
    channel      VARCHAR(64)  NOT NULL,
    external_key VARCHAR(257) NOT NULL,
    thread_id    VARCHAR(36)  NOT NULL,
    CONSTRAINT chat_thread_keys_pk PRIMARY KEY (user_key, channel, external_key)
);
CREATE INDEX chat_thread_keys_thread_idx ON chat_thread_keys (thread_id);

CREATE TABLE thread_contexts (
    thread_id  BIGINT NOT NULL,
    context    TEXT   NOT NULL,
    updated_at BIGINT NOT NULL,
    CONSTRAINT thread_contexts_pk PRIMARY KEY (thread_id)
);

-- One instance at a time runs a periodic task: it claims the task's row until its next period
-- (an UPDATE that only one instance's condition matches). The first task: pruning idle chat sessions.
CREATE TABLE periodic_claims (
    name     VARCHAR(64)  NOT NULL,
    owner    VARCHAR(128),
    until_at BIGINT       NOT NULL,
    CONSTRAINT periodic_claims_pk PRIMARY KEY (name)
);
INSERT INTO periodic_claims (name, owner, until_at) VALUES ('chat-session-pruning', NULL, 0);
