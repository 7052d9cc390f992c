package dev.switchboard.persistence.run;

/** A transition the run state machine forbids, e.g. completing a run that already ended. */
public class IllegalRunTransitionException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    public IllegalRunTransitionException(String runId, RunState from, RunState to) {
        super("cannot mark run " + runId + " as " + to.wire() + ": run is already " + from.wire());
    }
}
