-- Version 18: the text a running engine streamed, kept. Each row is one item/delta notification's
-- text, written in the same transaction (so a delta is in both or in neither), numbered per
-- execution attempt; only the execution that owns the run writes here (the insert is fenced on the
-- run's state and attempt). A response's event stream is made from these rows and the run's
-- result, so every follower — live, late, resumed, after a restart, on another instance — gets the
-- same events with the same sequence numbers.

CREATE TABLE run_text (
    run_id  VARCHAR(36) NOT NULL,
    attempt INTEGER     NOT NULL,
    part    INTEGER     NOT NULL,
    text    TEXT        NOT NULL,
    CONSTRAINT run_text_pk PRIMARY KEY (run_id, attempt, part)
);
