package dev.switchboard.core.lane;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;

/**
 * How the features' payloads map to columns beside the lane's: plugged in once (a CDI bean), read
 * when the lane's statements are made, so each statement's text stays fixed. The lane selects,
 * binds and hands back what this says without knowing what the columns mean.
 */
public interface PayloadColumns {

    /** A run's payload columns, selected after the lane's over {@code runs r} and what {@link #runJoins} adds. */
    List<String> runColumns();

    /** What a run's read adds after {@code FROM runs r} (outer joins only, so that every run is read), or "". */
    String runJoins();

    /** The payload of the run whose {@link #runColumns} start at column {@code first}. */
    RunPayload readRun(ResultSet rs, int first) throws SQLException;

    /** The columns of {@code runs} a new run's payload fills, in the order {@link #bindNew} binds them. */
    List<String> newRunColumns();

    /** Binds {@code payload} to {@link #newRunColumns}, the first at parameter {@code first}. */
    void bindNew(PreparedStatement s, int first, RunPayload payload) throws SQLException;

    /** {@code payload} as a read would return it right after its run was added and started, at {@code createdAt}. */
    RunPayload added(RunPayload payload, long createdAt);

    /**
     * The assignments that blank a run's content in its payload (its input; e.g. {@code input_text = ''}),
     * when the run's content is forgotten and its lifecycle kept ({@link FinishedRuns#blankContent}).
     */
    List<String> blankContent();

    /**
     * A lane's payload columns, selected after the lane's over {@code lanes l} with its lock: column
     * expressions that lock nothing (e.g. scalar subqueries keyed by {@code l.thread_id}).
     */
    List<String> laneColumns();

    /** The payload of the lane whose {@link #laneColumns} start at column {@code first}. */
    LanePayload readLane(ResultSet rs, int first) throws SQLException;
}
