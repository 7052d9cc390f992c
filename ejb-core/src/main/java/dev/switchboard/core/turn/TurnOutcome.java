package dev.switchboard.core.turn;

import dev.switchboard.persistence.run.RunState;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * How a turn ends once none of its runs is unfinished. A failed run ends it {@code interrupted}
 * (Holon has no {@code turn/failed}), with outcome {@code interrupted} when the run was stopped on
 * purpose and {@code failed} for an error (H6), its error as the message; otherwise it
 * {@code completed}, with the last reply as the message. There is no synthetic success (H8).
 */
public record TurnOutcome(String outcome, String message) {

    /** Error codes of runs stopped on purpose rather than failed. */
    private static final Set<String> INTERRUPTION_CODES = Set.of("interrupted", "cancelled", "superseded");

    /** What the decision needs from one run, in lane order; {@code reply} is the text of a succeeded run. */
    public record RunResult(RunState state, String errorCode, String errorMessage, String reply) {
    }

    /** The ending, or empty while any run is unfinished. */
    public static Optional<TurnOutcome> of(List<RunResult> runs) {
        RunResult failed = null;
        String reply = null;
        for (RunResult run : runs) {
            if (!run.state().isTerminal()) {
                return Optional.empty();
            }
            if (run.state() == RunState.FAILED) {
                failed = run;
            } else {
                reply = run.reply();
            }
        }
        if (failed == null) {
            return Optional.of(new TurnOutcome("completed", reply));
        }
        String code = failed.errorCode();
        return Optional.of(new TurnOutcome(code != null && INTERRUPTION_CODES.contains(code) ? "interrupted" : "failed",
                failed.errorMessage()));
    }

    public boolean isCompleted() {
        return "completed".equals(outcome);
    }
}
