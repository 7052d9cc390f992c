package dev.switchboard.core.lane;

import dev.switchboard.persistence.run.RunState;

/** How a run ended, as its row says: succeeded or failed, and the error's code (null without one). */
public record RunEnded(String runId, RunState state, String errorCode) {
}
