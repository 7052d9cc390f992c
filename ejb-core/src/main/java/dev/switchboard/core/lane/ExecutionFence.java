package dev.switchboard.core.lane;

/**
 * The lane's fence for a feature's own write that only a run's current execution may make (the
 * fencing token is the attempt): a condition the feature's statement carries, so the write and the
 * check are one statement and a late owner — its run taken over or ended — writes nothing. The
 * lane's rows stay the lane's to know: a feature names this, never the run's table.
 */
public final class ExecutionFence {

    /**
     * True while attempt (its second parameter) of run (its first) executes; binds two parameters,
     * the run's id and the attempt, where it stands in the feature's statement.
     */
    public static final String WHILE_EXECUTING =
            "EXISTS (SELECT 1 FROM runs WHERE run_id = ? AND attempt = ? AND state = 'executing')";

    private ExecutionFence() {
    }
}
