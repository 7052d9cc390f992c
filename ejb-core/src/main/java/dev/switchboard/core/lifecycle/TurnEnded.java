package dev.switchboard.core.lifecycle;

import dev.switchboard.persistence.run.RunKind;

/**
 * A turn ended — told to every {@link TurnEndings} inside the transaction that ended it, so what
 * they write (ingress records the final action of the event that started the turn) commits with it.
 *
 * @param firstRunId the turn's first run (the one an event was handed off to, if any)
 * @param firstRunKind what that run is ({@link RunKind#EVENT} for events)
 * @param firstRunCreatedAt when that run was created, epoch ms
 */
public record TurnEnded(String turnId, String userKey, String threadKey, String outcome, String message,
        String firstRunId, RunKind firstRunKind, long firstRunCreatedAt) {

    public boolean isCompleted() {
        return "completed".equals(outcome);
    }
}
