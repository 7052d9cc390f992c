/**
 * Threads as addresses: a (user, thread key) pair resolved to the row that carries the thread's
 * lane, created on first use and cached by {@link dev.switchboard.core.thread.ThreadDirectory};
 * and {@link dev.switchboard.core.thread.ThreadRepository}, the one place that reads and locks
 * threads, their runs and their turns.
 */
package dev.switchboard.core.thread;
