/**
 * Durable lanes: the serial execution queue of one thread key. A lane is claimed under the
 * thread row's lock and held by a lease (owner, expiry, run); the run's attempt number fences
 * every later write. {@link dev.switchboard.core.lane.LanePolicy} decides, the
 * {@link dev.switchboard.core.lane.LaneLedger} applies decisions in one transaction each, and
 * the {@link dev.switchboard.core.lane.LaneController} drives lanes on a managed executor.
 */
package dev.switchboard.core.lane;
