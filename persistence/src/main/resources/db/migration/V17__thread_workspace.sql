-- Version 17: per-turn workspaces. A thread's workspace line: the commit its next turn's worktree
-- is checked out at. Null: the thread has no workspace (unless SWITCHBOARD_WORKSPACE_THREADS=all);
-- '' : it has one, at its start (empty, or the configured source's head). Moved in the transaction
-- that records a turn's success (to the commit its change set made), and by a chat thread's undo
-- and redo; read with the lane's lock, so a run's claim carries it without another statement. The
-- repositories and worktrees themselves live under SWITCHBOARD_WORKSPACE_ROOT.

ALTER TABLE threads ADD COLUMN workspace_head VARCHAR(40);
