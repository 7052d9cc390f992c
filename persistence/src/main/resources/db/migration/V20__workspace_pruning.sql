-- Version 20: workspaces are pruned (issue 36) by one instance at a time, like idle chat sessions:
-- the pass is claimed on its periodic_claims row until its next period.
INSERT INTO periodic_claims (name, owner, until_at) VALUES ('workspace-pruning', NULL, 0);
