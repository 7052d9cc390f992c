-- Version 19: a chat thread's id is its owner's (issue 35). Thread keys were always per user
-- (threads.thread_key is unique per user), but chat_threads made the UUID global: one user could
-- take an id another used as a thread key, locking its owner out of their conversation's chat door,
-- and a 404 told whether an id existed. Now every user has their own namespace of chat thread ids.
ALTER TABLE chat_threads DROP CONSTRAINT chat_threads_pk;
ALTER TABLE chat_threads ADD CONSTRAINT chat_threads_pk PRIMARY KEY (user_key, thread_id);
DROP INDEX chat_thread_keys_thread_idx;
CREATE INDEX chat_thread_keys_thread_idx ON chat_thread_keys (user_key, thread_id);
