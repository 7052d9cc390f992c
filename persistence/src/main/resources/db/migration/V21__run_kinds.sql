-- Version 21: a run's kind (issue 37), set by the door that ingested it. The features above the lane
-- act on it instead of reading the run's source, which for a client's message is the client's own label.
-- Existing runs get the kind their source stood for.
ALTER TABLE runs ADD COLUMN kind VARCHAR(16) NOT NULL DEFAULT 'message';
UPDATE runs SET kind = CASE
        WHEN source = 'rpc' THEN 'turn'
        WHEN source = 'chat' THEN 'chat'
        WHEN source = 'chat:compact' THEN 'compaction'
        WHEN source = 'chat:approval' THEN 'resumption'
        WHEN source = 'responses' THEN 'response'
        WHEN source LIKE 'ingress:%' THEN 'event'
        ELSE 'delegated' END
    WHERE source IN ('rpc', 'chat', 'chat:compact', 'chat:approval', 'responses')
       OR source LIKE 'ingress:%' OR source LIKE 'delegation:%';
ALTER TABLE runs ADD CONSTRAINT runs_kind_check CHECK (kind IN
    ('message', 'turn', 'chat', 'compaction', 'resumption', 'response', 'event', 'delegated'));
