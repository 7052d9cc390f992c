/**
 * Per-turn workspaces (issue 17, in progress): the rules the workspace tools will apply, in plain
 * Java — {@link dev.switchboard.core.workspace.Confinement} (a tool's path stays inside the turn's
 * worktree: no absolute path, no {@code ..} or symlink leading out, nothing under {@code .git}),
 * {@link dev.switchboard.core.workspace.CommandPolicy} (the {@code run} tool executes only
 * allow-listed programs, by name, without a shell), {@link dev.switchboard.core.workspace.CommandRun}
 * (one such command in a worktree: fixed small environment, no input, merged output kept within a
 * limit by {@link dev.switchboard.core.workspace.BoundedOutput}, killed with what it started at its
 * timeout). Not wired to any tool yet.
 * Refusals are {@link dev.switchboard.core.workspace.WorkspaceRefusal}s whose message is the tool's
 * error text.
 */
package dev.switchboard.core.workspace;
