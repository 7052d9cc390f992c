/**
 * Notifications: the transactional outbox ({@link dev.switchboard.core.notify.Outbox}), the
 * sequencer that stamps committed notifications with a cluster-wide seq in commit order, and the
 * hub that delivers them live or replays them from any seq
 * ({@link dev.switchboard.core.notify.Subscription}).
 */
package dev.switchboard.core.notify;
