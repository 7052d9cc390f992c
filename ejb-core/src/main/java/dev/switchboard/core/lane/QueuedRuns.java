package dev.switchboard.core.lane;

/** Runs waiting in any lane, cluster-wide. @param oldestCreatedAt epoch ms, 0 when {@code count} is 0 */
public record QueuedRuns(long count, long oldestCreatedAt) {
}
