package dev.switchboard.core.lane;

/**
 * A feature's periodic pass over lanes it parked or waits on (deadlines, orphans), run on the lane
 * controller's timers every {@link #periodMs()} and at once after runs were cancelled. Each change
 * it makes is a transaction of its own; what it returns is applied after that commit. A failed pass
 * is tried again at the next period.
 */
public interface LaneSweep {

    /** A name for the logs. */
    String name();

    long periodMs();

    /** One pass: what its changes did to other lanes (handed to {@code apply} as each commits). */
    void sweep(java.util.function.Consumer<LaneEffects> apply);
}
