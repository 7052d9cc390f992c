package dev.switchboard.core.turn;

import dev.switchboard.core.ingress.IngressOutcomes;
import dev.switchboard.persistence.run.RunRecord;
import dev.switchboard.persistence.run.RunState;
import dev.switchboard.persistence.turn.TurnRecord;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonValue;
import jakarta.persistence.EntityManager;
import java.io.StringReader;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Keeps a turn in step with its runs, inside the transaction that changes a run (whose thread row
 * is locked): a claimed run reports {@code running}, a finished run emits its reply, and the turn
 * ends — exactly once — when its last run ends, as {@link TurnOutcome} decides.
 */
public final class TurnTracker {

    private final EntityManager em;
    private final TurnEvents events;

    public TurnTracker(EntityManager em, TurnEvents events) {
        this.em = em;
        this.events = events;
    }

    public void runStarted(RunRecord run) {
        TurnRecord turn = activeTurnOf(run);
        if (turn != null) {
            events.progress(turn, "running", null, run.getRunId());
        }
    }

    public void runEnded(RunRecord run) {
        TurnRecord turn = activeTurnOf(run);
        if (turn == null) {
            return;
        }
        if (run.getState() == RunState.SUCCEEDED) {
            String reply = replyText(run.getOutputJson());
            if (reply != null && !reply.isEmpty()) {
                events.assistantItem(turn, reply);
            }
        }
        settle(turn);
    }

    /** Ends the turn if none of its runs is unfinished. */
    public void settle(TurnRecord turn) {
        if (!turn.isActive()) {
            return;
        }
        List<RunRecord> runs = em.createNamedQuery(RunRecord.BY_TURN, RunRecord.class)
                .setParameter("turnId", turn.getTurnId())
                .getResultList();
        Optional<TurnOutcome> ending = TurnOutcome.of(runs.stream()
                .map(r -> new TurnOutcome.RunResult(r.getState(), r.getErrorCode(), r.getErrorMessage(),
                        r.getState() == RunState.SUCCEEDED ? replyText(r.getOutputJson()) : null))
                .toList());
        if (ending.isEmpty()) {
            return;
        }
        Instant now = Instant.now();
        turn.end(ending.get().outcome(), ending.get().message(), now.toEpochMilli());
        if (ending.get().isCompleted()) {
            events.completed(turn, now);
        } else {
            events.interrupted(turn, now);
        }
        if (!runs.isEmpty()) {
            RunRecord first = runs.get(0);
            new IngressOutcomes(em, events).runEnded(first.getRunId(), first.getSource(), turn, first.getCreatedAt());
        }
    }

    private TurnRecord activeTurnOf(RunRecord run) {
        if (run.getTurnId() == null) {
            return null;
        }
        TurnRecord turn = em.find(TurnRecord.class, run.getTurnId());
        return turn != null && turn.isActive() ? turn : null;
    }

    /** The reply text of an engine output ({@code {"text": ...}}), or null. */
    public static String replyText(String outputJson) {
        if (outputJson == null || outputJson.isBlank()) {
            return null;
        }
        try (JsonReader reader = Json.createReader(new StringReader(outputJson))) {
            JsonValue value = reader.readValue();
            if (value.getValueType() != JsonValue.ValueType.OBJECT) {
                return null;
            }
            JsonObject output = value.asJsonObject();
            JsonValue text = output.get("text");
            return text != null && text.getValueType() == JsonValue.ValueType.STRING ? output.getString("text") : null;
        } catch (RuntimeException e) {
            return null;
        }
    }
}
