package dev.switchboard.core.lane;

import java.util.List;
import java.util.function.UnaryOperator;

/**
 * A feature's part in a run's end, inside the lane's finish transaction (the thread row locked).
 * Before the end is written every ending, in {@linkplain LaneFeature order}, {@linkplain #review
 * reviews} the execution's output: it may fail the run, park it (it waits for something outside
 * the lane, its lane held by nobody) or ask to keep a change to the lane if the run ends well. The
 * first failure or park ends the review. After the end is written, every ending is told of it
 * ({@link #ended}) and says which lanes to wake or cancel. The lane applies these verdicts without
 * knowing what they mean.
 */
public interface RunEnding extends LaneFeature {

    /** What this feature makes of the execution's output; {@link Review#PROCEED} when nothing. */
    Review review(Ending ending);

    /** The run ended as {@code ended} says (written in this transaction); what that means for other lanes. */
    LaneEffects ended(Ended ended);

    /**
     * An execution's result about to be recorded: the claim it ran for, its lane (locked) and run as
     * read in this transaction, its output ({@code null} when the engine failed) and the run time now.
     */
    record Ending(Claim claim, Lane lane, LaneRun run, String outputJson, long now) {
    }

    /**
     * A run's end, written: by its own execution's finish ({@code finished}), or decided around it
     * (abandoned after too many crashes).
     */
    record Ended(LaneRun run, RunEnd end, int attempt, boolean finished, long now) {
    }

    /**
     * A verdict on an execution's output: fail the run (with {@code errorCode}, possibly null, and
     * {@code error}), park it, or go on; {@code keep} changes the lane (and returns it as changed)
     * once the run succeeds or parks.
     */
    record Review(String errorCode, String error, Park park, UnaryOperator<Lane> keep) {

        public static final Review PROCEED = new Review(null, null, null, null);

        public static Review fail(String errorCode, String error) {
            return new Review(errorCode, error, null, null);
        }

        public static Review park(Park park) {
            return new Review(null, null, park, null);
        }

        public static Review keep(UnaryOperator<Lane> keep) {
            return new Review(null, null, null, keep);
        }

        public boolean fails() {
            return error != null;
        }
    }

    /**
     * The run waits outside the lane: with {@code waits}, still executing and its lane parked (no
     * instance holds it, none may claim it, until a feature {@linkplain Lanes#resume resumes} it);
     * otherwise queued again at once to go on. {@code wake} are lanes the park made runnable.
     */
    record Park(boolean waits, List<Long> wake) {
    }
}
