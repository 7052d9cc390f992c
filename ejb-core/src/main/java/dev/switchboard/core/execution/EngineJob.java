package dev.switchboard.core.execution;

import com.google.common.base.Suppliers;
import dev.switchboard.core.engine.AgentEngine;
import dev.switchboard.core.engine.Cancellation;
import dev.switchboard.core.engine.EngineRequest;
import dev.switchboard.core.engine.ModelChoice;
import dev.switchboard.core.lane.Claim;
import dev.switchboard.core.lane.RunWork;
import dev.switchboard.core.lifecycle.RunProgress;
import dev.switchboard.core.thread.ThreadRuntime;
import jakarta.json.JsonObject;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;

/**
 * One claimed run's engine call: the engine its thread chose as the features prepared it, the
 * request built from the claim and what the features said the engine reads (each read on first
 * use, in the {@link ReadScope}), a {@link Cancellation} that turns true the moment the lane's control says the execution
 * may not go on, and the progress the engine shows, closed before the result is written. Plain Java.
 */
final class EngineJob implements RunWork.Job {

    private final Claim claim;
    private final ExecutionPreparation.Prepared prepared;
    private final RunProgress progress;
    private final Cancellation cancellation;
    private final ReadScope reads;

    EngineJob(Claim claim, ExecutionPreparation.Prepared prepared, RunProgress progress, RunWork.Control control,
            ReadScope reads) {
        this.claim = claim;
        this.prepared = prepared;
        this.progress = progress;
        this.cancellation = new Cancellation(control::mayContinue);
        this.reads = reads;
    }

    @Override
    public String label() {
        return prepared.engine().name();
    }

    @Override
    public CompletionStage<JsonObject> start() {
        AgentEngine engine = prepared.engine();
        return engine.execute(request());
    }

    /** What the engine is asked: the run, its thread's choices, and what the features prepared. */
    EngineRequest request() {
        EngineInputs in = prepared.inputs();
        RunContent run = RunContent.of(claim);
        ThreadRuntime runtime = ThreadChoice.of(claim);
        return new EngineRequest(claim.runId(), run.userKey(), run.threadKey(), run.inputText(),
                run.deliveryMode(), claim.attempt(), cancellation, readOnce(in.history()),
                in.clientCall() == null ? null : readOnce(in.clientCall()),
                new ModelChoice(runtime.modelId(), runtime.thinkingLevel()), progress,
                in.resumption(), in.delegation() == null ? null : readOnce(in.delegation()));
    }

    /** Read on first use, in the read scope, whatever thread the engine asks on; then kept. */
    private <T> Supplier<T> readOnce(Supplier<T> input) {
        return Suppliers.memoize(() -> reads.read(input));
    }

    @Override
    public void stop() {
        cancellation.cancel(); // returns once the engine has been told
    }

    @Override
    public void close() {
        progress.close();
    }
}
