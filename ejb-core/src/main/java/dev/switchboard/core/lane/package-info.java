/**
 * Durable lanes: the serial execution queue of one thread, a generic durable queue of runs. A
 * lane is claimed under the thread row's lock and held by a lease (owner, expiry by the
 * database's clock, run and attempt); the attempt fences every later write. The rules are plain:
 * {@link dev.switchboard.core.lane.LanePolicy} (whose lease, what to do with the head),
 * {@link dev.switchboard.core.lane.LaneSlots} (slots and wake-ups), and the runner and lease keeper
 * that execute runs and keep their leases, with an injected clock;
 * {@link dev.switchboard.core.lane.LaneLedger} applies decisions in one transaction each and
 * {@link dev.switchboard.core.lane.LaneController} gives the rest threads. Listeners
 * ({@link dev.switchboard.core.lane.LaneListener}) learn of runs starting and ending.
 */
package dev.switchboard.core.lane;
