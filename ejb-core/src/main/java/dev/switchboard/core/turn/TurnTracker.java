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
import java.util.Set;

/**
 * Keeps a turn in step with its runs, inside the transaction that changes a run (whose thread row
 * is locked): a claimed run reports {@code running}, a finished run emits its reply, and the turn
 * ends — exactly once — when its last run ends. A turn with a failed run ends
 * {@code interrupted}, with status {@code interrupted} for cancellations and {@code failed} for
 * errors (Holon has no {@code turn/failed}; H6 adds the status).
 */
public final class TurnTracker {

    /** Error codes of runs stopped on purpose rather than failed. */
    public static final Set<String> INTERRUPTION_CODES = Set.of("interrupted", "cancelled", "superseded");

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
        RunRecord failed = null;
        String reply = null;
        for (RunRecord run : runs) {
            if (!run.getState().isTerminal()) {
                return;
            }
            if (run.getState() == RunState.FAILED) {
                failed = run;
            } else {
                reply = replyText(run.getOutputJson());
            }
        }
        Instant now = Instant.now();
        if (failed != null) {
            String code = failed.getErrorCode();
            String outcome = code != null && INTERRUPTION_CODES.contains(code) ? "interrupted" : "failed";
            turn.end(outcome, failed.getErrorMessage(), now.toEpochMilli());
            events.interrupted(turn, now);
        } else {
            turn.end("completed", reply, now.toEpochMilli());
            events.completed(turn, now);
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
