/**
 * Threads: one row per (user, thread key). The row is also the lane's lock: it carries the
 * per-thread run sequence and the lease (owner, expiry, run) of the run executing in it.
 */
package dev.switchboard.persistence.thread;
