/**
 * Threads as addresses: a (user, thread key) pair resolved to the row that carries the thread's
 * lane, created on first use and cached by {@link dev.switchboard.core.thread.ThreadDirectory}.
 */
package dev.switchboard.core.thread;
