package dev.switchboard.core.lane;

/**
 * A finished run old enough to go, as retention pages them: its lane, when it was accepted, and its
 * value of the key retention asked to carry (null when it has none).
 */
public record AgedRun(String runId, long threadId, long createdAt, String carried) {
}
