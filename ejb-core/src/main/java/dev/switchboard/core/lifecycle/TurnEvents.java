package dev.switchboard.core.lifecycle;

import dev.switchboard.core.clock.InstanceClock;
import dev.switchboard.core.notify.Outbox;
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
    public void opened(TurnRef turn, List<JsonObject> userMessages, String runId) {
        started(turn);
        queued(turn, userMessages, runId);
    }

    /** Another run of a turn was queued (or its first): the user items and {@code turn/progress queued}. */
    public void queued(TurnRef turn, List<JsonObject> userMessages, String runId) {
        for (JsonObject message : userMessages) {
            item(turn, message, "active");
        }
        progress(turn, "queued", null, runId);
    }

    private void started(TurnRef turn) {
        outbox.append(turn.userKey(), turn.threadKey(), "turn/started",
                Lifecycle.turnStarted(turn.turnId(), turn.threadKey(), turn.startedAt()));
    }

    public void assistantItem(TurnRef turn, String text) {
        item(turn, Lifecycle.assistantMessage(text), "completed");
    }

    private void item(TurnRef turn, JsonObject content, String status) {
        outbox.append(turn.userKey(), turn.threadKey(), "item/created", Lifecycle.item(TurnIds.itemId("item"),
                content, status, turn.threadKey(), turn.turnId(), clock.now()));
    }

    public void progress(TurnRef turn, String state, String message, String runId) {
        Instant now = clock.now();
        String text = message != null ? message
                : Lifecycle.progressMessage(state, now.toEpochMilli() - turn.startedAt());
        outbox.append(turn.userKey(), turn.threadKey(), "turn/progress",
                Lifecycle.progress(turn.turnId(), turn.threadKey(), state, text, runId, now, turn.startedAt()));
    }

    public void completed(TurnRef turn, Instant at, String message) {
        outbox.append(turn.userKey(), turn.threadKey(), "turn/completed", Lifecycle.turnCompleted(
                turn.turnId(), turn.threadKey(), turn.startedAt(), at, message));
    }

    public void interrupted(TurnRef turn, Instant at, String outcome, String message, String mergedInto) {
        outbox.append(turn.userKey(), turn.threadKey(), "turn/interrupted", Lifecycle.turnInterrupted(
                turn.turnId(), turn.threadKey(), turn.startedAt(), at, outcome, message, mergedInto));
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
