package dev.switchboard.core.run;

import dev.switchboard.persistence.run.RunRecord;
import dev.switchboard.persistence.run.RunState;

/**
 * A run as callers see it: jagc's envelope fields ({@code status} is {@code running},
 * {@code succeeded} or {@code failed}) plus the finer lifecycle. Times are epoch ms, or null.
 */
public record RunView(String runId, String status, String state, String outputJson, String errorMessage, String errorCode,
        String threadKey, long threadSeq, String source, String deliveryMode, int attempt, int crashes,
        long createdAt, Long startedAt, Long finishedAt, String turnId) {

    public static RunView of(RunRecord r) {
        RunState state = r.getState();
        String output = state == RunState.SUCCEEDED ? r.getOutputJson() : null;
        String error = r.getErrorMessage() == null || r.getErrorMessage().isEmpty() ? null : r.getErrorMessage();
        return new RunView(r.getRunId(), state.jagcStatus(), state.wire(), output, error, r.getErrorCode(), r.getThreadKey(),
                r.getThreadSeq(), r.getSource(), r.getDeliveryMode(), r.getAttempt(), r.getCrashes(), r.getCreatedAt(),
                r.getStartedAt(), r.getFinishedAt(), r.getTurnId());
    }

    public boolean isTerminal() {
        return !"running".equals(status);
    }
}
