package dev.switchboard.core.lifecycle;

import dev.switchboard.core.clock.InstanceClock;
import dev.switchboard.core.notify.Outbox;
import dev.switchboard.persistence.turn.TurnRecord;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import java.time.Instant;
import java.util.List;

/** Appends turn and thread lifecycle notifications to the outbox, in the caller's transaction. */
@ApplicationScoped
public class TurnEvents {

    @Inject
    Outbox outbox;

    @Inject
    InstanceClock clock;

    public void threadState(String userKey, String threadKey, String type, String state, Instant at) {
        outbox.append(userKey, threadKey, "thread/" + type, Lifecycle.thread(type, state, threadKey, at));
    }

    /** A new turn with its first run: {@code turn/started}, the user items, {@code turn/progress queued}. */
    public void opened(TurnRecord turn, List<JsonObject> userMessages, String runId) {
        started(turn);
        queued(turn, userMessages, runId);
    }

    /** Another run of a turn was queued (or its first): the user items and {@code turn/progress queued}. */
    public void queued(TurnRecord turn, List<JsonObject> userMessages, String runId) {
        for (JsonObject message : userMessages) {
            item(turn, message, "active");
        }
        progress(turn, "queued", null, runId);
    }

    private void started(TurnRecord turn) {
        outbox.append(turn.getUserKey(), turn.getThreadKey(), "turn/started",
                Lifecycle.turnStarted(turn.getTurnId(), turn.getThreadKey(), turn.getStartedAt()));
    }

    public void assistantItem(TurnRecord turn, String text) {
        item(turn, Lifecycle.assistantMessage(text), "completed");
    }

    private void item(TurnRecord turn, JsonObject content, String status) {
        outbox.append(turn.getUserKey(), turn.getThreadKey(), "item/created", Lifecycle.item(TurnIds.itemId("item"),
                content, status, turn.getThreadKey(), turn.getTurnId(), clock.now()));
    }

    public void progress(TurnRecord turn, String state, String message, String runId) {
        Instant now = clock.now();
        String text = message != null ? message
                : Lifecycle.progressMessage(state, now.toEpochMilli() - turn.getStartedAt());
        outbox.append(turn.getUserKey(), turn.getThreadKey(), "turn/progress",
                Lifecycle.progress(turn.getTurnId(), turn.getThreadKey(), state, text, runId, now, turn.getStartedAt()));
    }

    public void completed(TurnRecord turn, Instant at) {
        outbox.append(turn.getUserKey(), turn.getThreadKey(), "turn/completed", Lifecycle.turnCompleted(
                turn.getTurnId(), turn.getThreadKey(), turn.getStartedAt(), at, turn.getMessage()));
    }

    public void interrupted(TurnRecord turn, Instant at) {
        outbox.append(turn.getUserKey(), turn.getThreadKey(), "turn/interrupted", Lifecycle.turnInterrupted(
                turn.getTurnId(), turn.getThreadKey(), turn.getStartedAt(), at, turn.getOutcome(), turn.getMessage(),
                turn.getMergedInto()));
    }

    /** A summary of an event's outcome on the user's {@code main} thread. */
    public void announce(String userKey, JsonObject item) {
        outbox.append(userKey, "main", "item/created", item);
    }

    /** Holon's untargeted interrupt: a turn/interrupted for a fresh id and no thread. */
    public void untargetedInterrupt(String userKey, String turnId, Instant at, String message) {
        outbox.append(userKey, null, "turn/interrupted", Lifecycle.turnInterrupted(turnId, null, at.toEpochMilli(),
                at, "interrupted", message, null));
    }
}
