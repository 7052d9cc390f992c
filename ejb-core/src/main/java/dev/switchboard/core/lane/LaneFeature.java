package dev.switchboard.core.lane;

/**
 * A feature plugged in above the lane. Features act in one order, for every part they play
 * (preparing an execution's work, {@link RunEnding}): lower first, so a later one wraps the engine
 * an earlier one prepared and reviews an output only after the earlier ones let it through. Which
 * feature has which place is theirs to say (docs/architecture.md lists them); the lane and the work only sort.
 */
public interface LaneFeature {

    int order();
}
