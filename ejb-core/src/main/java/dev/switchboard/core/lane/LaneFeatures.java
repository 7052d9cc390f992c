package dev.switchboard.core.lane;

import dev.switchboard.core.engine.AgentEngine;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import java.util.Comparator;
import java.util.List;
import java.util.stream.StreamSupport;

/**
 * The features plugged in above the lane, each list in its order: how they prepare an execution
 * ({@link ExecutionPreparation}), what a run's end means to them ({@link RunEnding}) and what they
 * sweep on the lane's timers ({@link LaneSweep}). Found once, at start.
 */
@ApplicationScoped
public class LaneFeatures {

    @Inject
    @Any
    Instance<ExecutionPreparation> preparationBeans;

    @Inject
    @Any
    Instance<RunEnding> endingBeans;

    @Inject
    @Any
    Instance<LaneSweep> sweepBeans;

    private List<ExecutionPreparation> preparations;
    private List<RunEnding> endings;
    private List<LaneSweep> sweeps;

    @PostConstruct
    void find() {
        preparations = StreamSupport.stream(preparationBeans.spliterator(), false)
                .sorted(Comparator.comparingInt(LaneFeature::order)).toList();
        endings = StreamSupport.stream(endingBeans.spliterator(), false)
                .sorted(Comparator.comparingInt(LaneFeature::order)).toList();
        sweeps = StreamSupport.stream(sweepBeans.spliterator(), false).toList();
    }

    /** The features as given, in their order: the lane built outside the container. */
    static LaneFeatures of(List<ExecutionPreparation> preparations, List<RunEnding> endings, List<LaneSweep> sweeps) {
        LaneFeatures features = new LaneFeatures();
        features.preparations = List.copyOf(preparations);
        features.endings = List.copyOf(endings);
        features.sweeps = List.copyOf(sweeps);
        return features;
    }

    /** The execution of {@code claim}: {@code engine} (its thread's) and no inputs, as every preparation makes it. */
    public ExecutionPreparation.Prepared prepare(Claim claim, AgentEngine engine) {
        ExecutionPreparation.Prepared prepared = new ExecutionPreparation.Prepared(engine, EngineInputs.NONE);
        for (ExecutionPreparation preparation : preparations) {
            prepared = preparation.prepare(claim, prepared);
        }
        return prepared;
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
