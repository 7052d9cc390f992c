package dev.switchboard.core.history;

import dev.switchboard.core.lane.ExecutionFence;
import dev.switchboard.core.sql.Statements;
import dev.switchboard.core.sql.Store;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.List;

/**
 * The {@code run_text} table in plain JDBC: the text a run's engine streamed, one row per
 * {@code item/delta} notification, numbered per execution attempt. What a follower of the run's
 * text reads to catch up — any time, on any instance — before it follows the notifications.
 * Statements run in the caller's transaction if there is one.
 */
@Store("run_text")
@ApplicationScoped
public class RunTexts {

    /**
     * Fenced by the lane: only an execution that still owns the run writes (a late owner's text
     * after the run was taken over or ended is not kept, so the parts of one attempt all precede the next's).
     */
    private static final String APPEND = "INSERT INTO run_text (run_id, attempt, part, text)"
            + " SELECT ?, ?, ?, ? WHERE " + ExecutionFence.WHILE_EXECUTING;
    private static final String PARTS = "SELECT attempt, part, text FROM run_text WHERE run_id = ? ORDER BY attempt, part";

    @Inject
    Statements statements;

    public RunTexts() {
    }

    /** Built outside the container (the in-process tests). */
    public RunTexts(Statements statements) {
        this.statements = statements;
    }

    /** Keeps a part of attempt {@code attempt}'s text; false when that attempt no longer owns the run. */
    public boolean append(String runId, int attempt, int part, String text) {
        return statements.update(APPEND, s -> {
            s.setString(1, runId);
            s.setInt(2, attempt);
            s.setInt(3, part);
            s.setString(4, text);
            s.setString(5, runId); // the fence's
            s.setInt(6, attempt);
        }, "keeping streamed text of run " + runId) == 1;
    }

    /** The run's streamed text so far, in order. */
    public List<RunTextPart> parts(String runId) {
        return statements.query(PARTS, s -> s.setString(1, runId),
                rs -> new RunTextPart(rs.getInt(1), rs.getInt(2), rs.getString(3)),
                "reading the streamed text of run " + runId);
    }

    /** Retention: deletes the streamed text of these runs (deleted with them, in the caller's transaction). */
    public int deleteOfRuns(List<String> runIds) {
        return statements.updateIn("DELETE FROM run_text WHERE run_id IN (%s)", runIds, "deleting aged runs' text");
    }

    /** Forgets the text one run streamed (a response that was not to be stored). */
    public int deleteOfRun(String runId) {
        return statements.update("DELETE FROM run_text WHERE run_id = ?", s -> s.setString(1, runId),
                "forgetting the text of run " + runId);
    }
}
