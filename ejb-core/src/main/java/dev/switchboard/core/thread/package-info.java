/**
 * Threads as addresses: a (user, thread key) pair resolved to the row that carries the thread's
 * lane, created on first use and cached by {@link dev.switchboard.core.thread.ThreadDirectory};
 * and the reads of threads, their runs and their turns off the lane's path
 * ({@link dev.switchboard.core.thread.ThreadRepository}); a thread's lease and its runs' states are
 * the lane's own rows ({@code dev.switchboard.core.lane}).
 * A thread's choices live on its row: its runtime ({@link dev.switchboard.core.thread.ThreadRuntimes})
 * and its workspace line ({@link dev.switchboard.core.thread.ThreadWorkspaces}, which also reads a
 * run's turn record and moves the line with a conversation's undo; the web modules reach it through
 * {@link dev.switchboard.core.thread.WorkspaceService}).
 */
package dev.switchboard.core.thread;
