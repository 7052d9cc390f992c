/**
 * Per-turn workspaces in plain Java on JGit (docs/workspaces.md): {@link dev.switchboard.core.workspace.Workspaces}
 * (the root; per thread a bare repository, its turns' worktrees and records),
 * {@link dev.switchboard.core.workspace.Worktree} (one turn's directory, brought to the thread's head
 * from the thread's checkout cache by {@link dev.switchboard.core.workspace.FileStamp}s — the cache
 * {@link dev.switchboard.core.workspace.CheckoutCache}, bringing it to the head
 * {@link dev.switchboard.core.workspace.Checkout}; what the turn changed as one commit and its diff, a
 * {@link dev.switchboard.core.workspace.ChangeSet}, from a snapshot of its files
 * ({@link dev.switchboard.core.workspace.WorktreeSnapshots}); unified diffs applied whole or not at all
 * ({@link dev.switchboard.core.workspace.DiffApplier}); its running commands
 * {@link dev.switchboard.core.workspace.WorktreeCommands}), and the rules the workspace tools apply:
 * {@link dev.switchboard.core.workspace.Confinement} (a tool's path stays inside the worktree: no
 * absolute path, no {@code ..} or symlink leading out, nothing under {@code .git}),
 * {@link dev.switchboard.core.workspace.CommandPolicy} (the {@code run} tool executes only
 * allow-listed programs, by name, without a shell), {@link dev.switchboard.core.workspace.CommandRun}
 * (one such command in a worktree: fixed small environment, no input, merged output kept within a
 * limit by {@link dev.switchboard.core.workspace.BoundedOutput}, killed with what it started at its
 * timeout). Which commit is a thread's head is not kept here but in the database, by the caller.
 * Refusals are {@link dev.switchboard.core.workspace.WorkspaceRefusal}s whose message is the tool's
 * error text.
 */
package dev.switchboard.core.workspace;
