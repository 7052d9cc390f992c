package dev.switchboard.core.execution;

import dev.switchboard.core.engine.EngineSelector;
import dev.switchboard.core.lane.Claim;
import dev.switchboard.core.lane.LaneFeature;
import dev.switchboard.core.lane.RunWork;
import dev.switchboard.core.lifecycle.RunProgressLedger;
import dev.switchboard.core.lifecycle.RunProgressStreams;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

/**
 * What the lane's executions run here: an agent engine call. The thread's engine, wrapped and fed
 * by every {@link ExecutionPreparation} in order, shows its progress as the run's notifications.
 */
@ApplicationScoped
public class EngineWork implements RunWork {

    /** Writes running engines' progress on threads of their own: a slow write delays no lease, claim or engine. */
    @Resource
    ManagedThreadFactory threadFactory;

    @Inject
    EngineSelector engines;

    @Inject
    ScopedReads reads;

    @Inject
    RunProgressStreams progressStreams;

    @Inject
    @Any
    Instance<ExecutionPreparation> preparationBeans;

    private List<ExecutionPreparation> preparations;
    private ScheduledExecutorService progressWriters;

    @PostConstruct
    void start() {
        preparations = preparationBeans.stream().sorted(Comparator.comparingInt(LaneFeature::order)).toList();
        progressWriters = Executors.newScheduledThreadPool(2, threadFactory);
    }

    /*
     * At the application's stop. The lane controller stops its executions in its own @PreDestroy, in
     * no order the container promises against this one: progress still being streamed then may be
     * dropped (a RunProgress whose writer is gone drops its batch; the stored result is the authority).
     */
    @PreDestroy
    void stop() {
        progressWriters.shutdownNow();
    }

    @Override
    public String name() {
        return engines.engine().name();
    }

    @Override
    public Job prepare(Claim claim, Control control) {
        ExecutionPreparation.Prepared prepared = reads.read(() -> prepared(claim, preparations,
                new ExecutionPreparation.Prepared(engines.engine(ThreadChoice.of(claim).engine()), EngineInputs.NONE)));
        RunContent run = RunContent.of(claim);
        return new EngineJob(claim, prepared, progressStreams.open(new RunProgressLedger.Target(run.userKey(),
                run.threadKey(), run.turnId(), claim.runId(), claim.attempt()), progressWriters), control, reads::read);
    }

    /** {@code start} as every preparation, in their order, makes it. */
    static ExecutionPreparation.Prepared prepared(Claim claim, List<ExecutionPreparation> preparations,
            ExecutionPreparation.Prepared start) {
        ExecutionPreparation.Prepared prepared = start;
        for (ExecutionPreparation preparation : preparations) {
            prepared = preparation.prepare(claim, prepared);
        }
        return prepared;
    }
}
