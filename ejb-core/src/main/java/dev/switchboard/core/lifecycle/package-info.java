/**
 * Lifecycle notifications shared by every door: the Holon shapes of thread, turn and item
 * notifications ({@link dev.switchboard.core.lifecycle.Lifecycle}), their append to the outbox in
 * the caller's transaction ({@link dev.switchboard.core.lifecycle.TurnEvents}), turn and item ids,
 * and the {@link dev.switchboard.core.lifecycle.TurnEnded} event that tells other concepts a turn ended.
 */
package dev.switchboard.core.lifecycle;
