package dev.switchboard.core.lane;

import dev.switchboard.core.sql.Statements;

/** The lane's parts for other packages' in-process tests, built as the container would on these statements. */
public final class LaneParts {

    private LaneParts() {
    }

    /** The lane's API on {@code statements} for what needs no clock, head or ends: opening, locking, asking who holds lanes. */
    public static Lanes lanes(Statements statements, PayloadColumns payloads) {
        Lanes lanes = new Lanes();
        lanes.rows = rows(statements, payloads);
        return lanes;
    }

    /** The lane's finished runs on {@code statements}, its payload columns {@code payloads}. */
    public static FinishedRuns finishedRuns(Statements statements, PayloadColumns payloads) {
        FinishedRuns finished = new FinishedRuns();
        finished.rows = rows(statements, payloads);
        return finished;
    }

    /** The lane's reads of runs on {@code statements}, its payload columns {@code payloads}. */
    public static RunReads runReads(Statements statements, PayloadColumns payloads) {
        RunReads reads = new RunReads();
        reads.rows = rows(statements, payloads);
        return reads;
    }

    private static LaneRows rows(Statements statements, PayloadColumns payloads) {
        LaneRows rows = new LaneRows();
        rows.statements = statements;
        rows.payloads = payloads;
        return rows;
    }
}
