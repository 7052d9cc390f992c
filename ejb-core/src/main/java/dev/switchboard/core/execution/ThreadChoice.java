package dev.switchboard.core.execution;

import dev.switchboard.core.lane.Claim;
import dev.switchboard.core.lane.Lane;
import dev.switchboard.core.lane.LanePayload;
import dev.switchboard.core.thread.ThreadRuntime;

/**
 * What a thread's row holds for its runs above the lane, the lane's {@link LanePayload}: the
 * runtime the thread chose (engine, model, thinking level, workspace line), read with the lane's lock.
 */
public record ThreadChoice(ThreadRuntime runtime) implements LanePayload {

    /** What the claimed run's thread chose, as its claim read it. */
    public static ThreadRuntime of(Claim claim) {
        return ((ThreadChoice) claim.lanePayload()).runtime(); // the only lane payload plugged in (RunColumns)
    }

    /** What the lane's thread chose, as its lock read it. */
    public static ThreadRuntime of(Lane lane) {
        return ((ThreadChoice) lane.payload()).runtime();
    }

    /** The lane with its thread's workspace line at {@code head} (written by the caller in this transaction). */
    public static Lane withWorkspace(Lane lane, String head) {
        return lane.withPayload(new ThreadChoice(of(lane).withWorkspace(head)));
    }
}
