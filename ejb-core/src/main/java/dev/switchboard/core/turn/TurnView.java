package dev.switchboard.core.turn;

import dev.switchboard.core.thread.TurnRows;


/** A turn as callers see it; times are epoch ms, or null. {@code outcome}: completed, interrupted, failed. */
public record TurnView(String turnId, String threadKey, String state, String outcome, String message,
        String mergedInto, long startedAt, Long endedAt) {

    public static TurnView of(TurnRows.TurnRow t) {
        return new TurnView(t.turnId(), t.threadKey(), t.state(), t.outcome(), t.message(), t.mergedInto(),
                t.startedAt(), t.endedAt());
    }

    /** A turn just started. */
    public static TurnView started(String turnId, String threadKey, long startedAt) {
        return new TurnView(turnId, threadKey, "active", null, null, null, startedAt, null);
    }
}
