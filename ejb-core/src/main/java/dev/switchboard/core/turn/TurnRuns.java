package dev.switchboard.core.turn;

import dev.switchboard.core.execution.StoredRuns;
import dev.switchboard.core.execution.StoredRuns.StoredRun;
import dev.switchboard.core.thread.TurnRows;
import dev.switchboard.core.thread.TurnRows.TurnRow;
import dev.switchboard.persistence.run.RunKind;
import dev.switchboard.persistence.run.RunState;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns with their runs, in the caller's transaction: a turn as its store holds it ({@link TurnRows})
 * beside its runs as the lane reads them ({@link StoredRuns}, by the turn they carry) — two reads, the
 * second only when there is a turn to read runs of.
 */
@ApplicationScoped
public class TurnRuns {

    @Inject
    TurnRows turns;

    @Inject
    StoredRuns runs;

    public TurnRuns() {
    }

    /** Built outside the container (the in-process tests). */
    public TurnRuns(TurnRows turns, StoredRuns runs) {
        this.turns = turns;
        this.runs = runs;
    }

    /** An active turn with its runs in lane order. */
    public record ActiveTurn(String turnId, String userKey, String threadKey, long startedAt, String mergedInto,
            List<TurnRun> runs) {
    }

    /** What the turn's end needs of one of its runs. */
    public record TurnRun(String runId, RunKind kind, long createdAt, RunState state, String errorCode,
            String errorMessage, String outputJson) {
    }

    /** A run of a turn as a turn call weighs it: its state, what it is, and its input. */
    public record TurnRunInput(String runId, RunState state, RunKind kind, String inputText, String inputJson) {
    }

    /** An active turn of a thread, with its runs in lane order. */
    public record OpenTurn(String turnId, String userKey, String threadKey, long startedAt, List<TurnRunInput> runs) {
    }

    /** The turn with what its end needs of its runs, if it is active; null otherwise. */
    public ActiveTurn activeTurn(String turnId) {
        TurnRow turn = turns.read(turnId);
        if (turn == null || !turn.isActive()) {
            return null;
        }
        List<TurnRun> of = runs.ofTurn(turnId).stream().map(r -> new TurnRun(r.runId(), r.kind(), r.createdAt(),
                r.state(), r.errorCode(), r.errorMessage(), r.outputJson())).toList();
        return new ActiveTurn(turnId, turn.userKey(), turn.threadKey(), turn.startedAt(), turn.mergedInto(), of);
    }

    /** The thread's active turns that have runs, oldest first, each with its runs in lane order. */
    public List<OpenTurn> openOnThread(long threadId) {
        List<TurnRow> active = turns.activeOnThread(threadId);
        if (active.isEmpty()) { // the usual case: one read
            return List.of();
        }
        Map<String, List<TurnRunInput>> byTurn = new LinkedHashMap<>();
        for (StoredRun run : runs.ofTurns(active.stream().map(TurnRow::turnId).toList())) {
            byTurn.computeIfAbsent(run.turnId(), t -> new ArrayList<>()).add(input(run));
        }
        List<OpenTurn> open = new ArrayList<>(active.size());
        for (TurnRow turn : active) {
            List<TurnRunInput> of = byTurn.get(turn.turnId());
            if (of != null) {
                open.add(new OpenTurn(turn.turnId(), turn.userKey(), turn.threadKey(), turn.startedAt(), List.copyOf(of)));
            }
        }
        return open;
    }

    /** The turn's runs in lane order. */
    public List<TurnRunInput> runsOf(String turnId) {
        return runs.ofTurn(turnId).stream().map(TurnRuns::input).toList();
    }

    /** The turn's runs, active or not, in lane order, without their output (null). */
    public List<TurnRun> runEnds(String turnId) {
        return runs.ofTurn(turnId).stream().map(r -> new TurnRun(r.runId(), r.kind(), r.createdAt(), r.state(),
                r.errorCode(), r.errorMessage(), null)).toList();
    }

    private static TurnRunInput input(StoredRun run) {
        return new TurnRunInput(run.runId(), run.state(), run.kind(), run.inputText(), run.inputJson());
    }
}
