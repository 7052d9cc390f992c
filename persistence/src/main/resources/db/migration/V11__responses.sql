-- Version 11: the responses of POST /responses (Open Responses). A response is a run in a thread
-- (its chain's thread); this row keeps what the run's result does not: the request as normalised
-- (its echoed fields, tools and options), the conversation before it ('prior': the previous
-- response's prior, input and output) and its own new input items, so a continuation resolves
-- previous input + output + new input without replaying the thread (two continuations of one
-- response fork the chain in the same thread). The output and status are the run's.
-- 'stored' false: the row and the run's content are removed once the response has been returned.

CREATE TABLE responses (
    response_id          VARCHAR(64)  NOT NULL,
    run_id               VARCHAR(36)  NOT NULL,
    user_key             VARCHAR(128) NOT NULL,
    thread_key           VARCHAR(512) NOT NULL,
    previous_response_id VARCHAR(64),
    stored               BOOLEAN      NOT NULL,
    request              TEXT         NOT NULL,
    prior                TEXT         NOT NULL,
    input                TEXT         NOT NULL,
    created_at           BIGINT       NOT NULL,
    CONSTRAINT responses_pk PRIMARY KEY (response_id)
);
CREATE UNIQUE INDEX responses_run_uk ON responses (run_id);
