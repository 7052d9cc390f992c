package dev.switchboard.persistence.run;

/**
 * Lifecycle of a run. jagc clients see only {@code running | succeeded | failed}; Switchboard
 * keeps the finer state (a queued run waits for its lane, an executing one holds the lane lease).
 *
 * <pre>
 * queued ──claim──► executing ──► succeeded | failed
 *   │                  │
 *   │                  └─lease expired──► queued (re-executed with attempt + 1)
 *   └─cancel / attempts exhausted──► failed
 * </pre>
 */
public enum RunState {
    QUEUED("queued"),
    EXECUTING("executing"),
    SUCCEEDED("succeeded"),
    FAILED("failed");

    private final String wire;

    RunState(String wire) {
        this.wire = wire;
    }

    public String wire() {
        return wire;
    }

    public boolean isTerminal() {
        return this == SUCCEEDED || this == FAILED;
    }

    /** The jagc status: {@code running} covers both waiting and executing. */
    public String jagcStatus() {
        return isTerminal() ? wire : "running";
    }

    public static RunState fromWire(String wire) {
        for (RunState s : values()) {
            if (s.wire.equals(wire)) {
                return s;
            }
        }
        throw new IllegalArgumentException("unknown run state: " + wire);
    }
}
