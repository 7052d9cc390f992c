package dev.switchboard.core.run;


/**
 * A run as callers see it: jagc's envelope fields ({@code status} is {@code running},
 * {@code succeeded} or {@code failed}) plus the finer lifecycle. Times are epoch ms, or null.
 */
public record RunView(String runId, String status, String state, String outputJson, String errorMessage, String errorCode,
        String threadKey, long threadSeq, String source, String deliveryMode, int attempt, int crashes,
        long createdAt, Long startedAt, Long finishedAt, String turnId) {

    public boolean isTerminal() {
        return !"running".equals(status);
    }
}
