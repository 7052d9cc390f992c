package dev.switchboard.core.workspace;

/**
 * A turn record's status as clients read it: the run's as recorded now, which a {@code turn.json}
 * written when the execution ended may not know (its run then failed {@code workspace_conflict},
 * or another execution finished it).
 */
public final class TurnStatus {

    private TurnStatus() {
    }

    /** {@code running}, {@code completed}, {@code cancelled}, {@code interrupted} or {@code failed}; {@code written} for a state it does not know. */
    public static String of(String runState, String errorCode, String written) {
        return switch (runState) {
            case "succeeded" -> "completed";
            case "failed" -> "cancelled".equals(errorCode) || "interrupted".equals(errorCode) ? errorCode : "failed";
            case "queued", "executing" -> "running";
            default -> written;
        };
    }
}
