package dev.switchboard.core.lane;

import dev.switchboard.persistence.run.RunState;

/**
 * A run's row as the features read it off the lane's path, whatever became of the run: its place
 * in its lane, its state, attempts and times (epoch ms; {@code startedAt} and {@code finishedAt} null
 * when not yet), its output and error as its end wrote them, and what it carries for the features.
 */
public record RunRow(String runId, long threadId, long threadSeq, RunState state, int attempt, int crashes,
        long createdAt, Long startedAt, Long finishedAt, String outputJson, String errorCode, String errorMessage,
        RunPayload payload) {
}
