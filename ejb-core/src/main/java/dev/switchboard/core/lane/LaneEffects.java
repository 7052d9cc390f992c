package dev.switchboard.core.lane;

import java.util.ArrayList;
import java.util.List;

/**
 * What a change did to other lanes, for after its commit: lanes that have work now ({@code wake}),
 * lanes whose runs must be cancelled ({@code cancel}).
 */
public record LaneEffects(List<Long> wake, List<Long> cancel) {

    public static final LaneEffects NONE = new LaneEffects(List.of(), List.of());

    public LaneEffects {
        wake = List.copyOf(wake);
        cancel = List.copyOf(cancel);
    }

    public LaneEffects plus(LaneEffects other) {
        if (other.wake.isEmpty() && other.cancel.isEmpty()) {
            return this;
        }
        if (wake.isEmpty() && cancel.isEmpty()) {
            return other;
        }
        List<Long> w = new ArrayList<>(wake);
        w.addAll(other.wake);
        List<Long> c = new ArrayList<>(cancel);
        c.addAll(other.cancel);
        return new LaneEffects(w, c);
    }
}
