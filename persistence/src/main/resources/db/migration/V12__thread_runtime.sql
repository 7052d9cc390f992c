-- Version 12: a thread's runtime choice (jagc's thread runtime endpoints): the engine that runs its
-- turns, the model it asks for, and the thinking level. Null: the instance's defaults
-- (SWITCHBOARD_ENGINE and its model, thinking off). Read with the lane's lock, so a run's claim
-- carries them without another statement.

ALTER TABLE threads ADD COLUMN engine VARCHAR(64);
ALTER TABLE threads ADD COLUMN model_id VARCHAR(256);
ALTER TABLE threads ADD COLUMN thinking_level VARCHAR(16);
