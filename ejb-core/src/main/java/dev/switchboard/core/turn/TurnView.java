package dev.switchboard.core.turn;

import dev.switchboard.core.thread.TurnRows;

import dev.switchboard.persistence.turn.TurnRecord;

/** A turn as callers see it; times are epoch ms, or null. {@code outcome}: completed, interrupted, failed. */
public record TurnView(String turnId, String threadKey, String state, String outcome, String message,
        String mergedInto, long startedAt, Long endedAt) {

    public static TurnView of(TurnRows.TurnRow t) {
        return new TurnView(t.turnId(), t.threadKey(), t.state(), t.outcome(), t.message(), t.mergedInto(),
                t.startedAt(), t.endedAt());
    }

    public static TurnView of(TurnRecord t) {
        return new TurnView(t.getTurnId(), t.getThreadKey(), t.getState(), t.getOutcome(), t.getMessage(),
                t.getMergedInto(), t.getStartedAt(), t.getEndedAt());
    }
}
