package dev.switchboard.core.lane;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import java.util.Comparator;
import java.util.List;
import java.util.stream.StreamSupport;

/**
 * The features plugged in above the lane, in their order: what a run's end means to them
 * ({@link RunEnding}) and what they sweep on the lane's timers ({@link LaneSweep}). Found once, at
 * start. (What an execution runs is {@link RunWork}'s, one plug of its own.)
 */
@ApplicationScoped
public class LaneFeatures {

    @Inject
    @Any
    Instance<RunEnding> endingBeans;

    @Inject
    @Any
    Instance<LaneSweep> sweepBeans;

    private List<RunEnding> endings;
    private List<LaneSweep> sweeps;

    @PostConstruct
    void find() {
        endings = StreamSupport.stream(endingBeans.spliterator(), false)
                .sorted(Comparator.comparingInt(LaneFeature::order)).toList();
        sweeps = StreamSupport.stream(sweepBeans.spliterator(), false).toList();
    }

    /** The features as given, in their order: the lane built outside the container. */
    static LaneFeatures of(List<RunEnding> endings, List<LaneSweep> sweeps) {
        LaneFeatures features = new LaneFeatures();
        features.endings = List.copyOf(endings);
        features.sweeps = List.copyOf(sweeps);
        return features;
    }

    public List<RunEnding> endings() {
        return endings;
    }

    /** Tells every ending of {@code ended}; what they did to other lanes, together. */
    public LaneEffects ended(RunEnding.Ended ended) {
        LaneEffects effects = LaneEffects.NONE;
        for (RunEnding ending : endings) {
            effects = effects.plus(ending.ended(ended));
        }
        return effects;
    }

    public List<LaneSweep> sweeps() {
        return sweeps;
    }
}
