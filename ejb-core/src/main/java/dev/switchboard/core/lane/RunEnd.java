package dev.switchboard.core.lane;

import dev.switchboard.persistence.run.RunState;

/** How a run ended: {@code succeeded} with its output, or {@code failed} with a code (or null) and a message. */
public record RunEnd(RunState state, String outputJson, String errorCode, String errorMessage) {

    public RunEnd {
        if (!state.isTerminal()) {
            throw new IllegalArgumentException("not an end: " + state);
        }
    }

    public static RunEnd succeeded(String outputJson) {
        return new RunEnd(RunState.SUCCEEDED, outputJson, null, null);
    }

    public static RunEnd failed(String errorCode, String errorMessage) {
        return new RunEnd(RunState.FAILED, null, errorCode, errorMessage);
    }

    /** The engine's own result — its output or its failure — not an end decided around it (cancelled, abandoned: those carry a code). */
    public boolean isEngineResult() {
        return errorCode == null;
    }
}
