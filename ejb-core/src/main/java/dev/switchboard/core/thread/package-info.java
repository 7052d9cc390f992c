/**
 * Threads as addresses: a (user, thread key) pair resolved to the row that carries the thread's
 * lane, created on first use and cached by {@link dev.switchboard.core.thread.ThreadDirectory};
 * and the two places that read and write threads, their runs and their turns:
 * {@link dev.switchboard.core.thread.LaneRows}, the per-run path in plain JDBC, and
 * {@link dev.switchboard.core.thread.ThreadRepository}, everything else through the entities.
 * A thread's choices live on its row: its runtime ({@link dev.switchboard.core.thread.ThreadRuntimes})
 * and its workspace line ({@link dev.switchboard.core.thread.ThreadWorkspaces}, which also reads a
 * run's turn record and moves the line with a conversation's undo; the web modules reach it through
 * {@link dev.switchboard.core.thread.WorkspaceService}).
 */
package dev.switchboard.core.thread;
