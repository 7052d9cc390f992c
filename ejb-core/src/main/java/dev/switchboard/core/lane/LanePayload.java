package dev.switchboard.core.lane;

/**
 * What a thread's row holds for its runs beside the lane's lease — the features' choice of what
 * to run them with — read with the lane's lock and handed to every claim. Opaque to the lane, as
 * a run's {@link RunPayload}; a feature may keep a change of it when a run ends well
 * ({@link RunEnding.Review#keep}).
 */
public interface LanePayload {
}
