package dev.switchboard.core.execution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.switchboard.core.engine.AgentEngine;
import dev.switchboard.core.engine.EngineRequest;
import dev.switchboard.core.lane.Claim;
import dev.switchboard.core.lifecycle.RunProgress;
import dev.switchboard.core.thread.ThreadRuntime;
import dev.switchboard.persistence.run.RunKind;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** A claimed run's engine call as the lane's work: what the engine is asked, and how it is stopped. */
class EngineJobTest {

    private static final Claim CLAIM = new Claim("run-1", 7, 2, 5_000, 0, RunContent.of("alice", "support", "api",
            RunKind.MESSAGE, null, "followUp", "hello", null, "turn-1", "hash"),
            new ThreadChoice(new ThreadRuntime(null, "model-x", "high")));

    /** Answers what it is asked, and keeps the request. */
    private static final class Recording implements AgentEngine {
        final List<EngineRequest> requests = new ArrayList<>();

        @Override
        public String name() {
            return "recording";
        }

        @Override
        public CompletionStage<JsonObject> execute(EngineRequest request) {
            requests.add(request);
            return CompletableFuture.completedFuture(Json.createObjectBuilder().add("text", request.inputText()).build());
        }
    }

    @Test
    void theEngineIsAskedForTheClaimedRunWithWhatItsThreadChose() {
        Recording engine = new Recording();
        EngineJob job = new EngineJob(CLAIM, new ExecutionPreparation.Prepared(engine, EngineInputs.NONE),
                RunProgress.silent(), () -> true, ReadScope.IN_PLACE);
        assertEquals("recording", job.label());
        assertEquals("hello", job.start().toCompletableFuture().join().getString("text"));
        EngineRequest asked = engine.requests.get(0);
        assertEquals(List.of("run-1", "alice", "support", "followUp", 2),
                List.of(asked.runId(), asked.userKey(), asked.threadKey(), asked.deliveryMode(), asked.attempt()));
        assertEquals("model-x", asked.choice().modelId());
        assertEquals("high", asked.choice().thinkingLevel());
    }

    @Test
    void theEngineSeesItsCancellationTheMomentTheLaneSaysItMayNotGoOn() {
        AtomicBoolean mayContinue = new AtomicBoolean(true);
        Recording engine = new Recording();
        EngineJob job = new EngineJob(CLAIM, new ExecutionPreparation.Prepared(engine, EngineInputs.NONE),
                RunProgress.silent(), mayContinue::get, ReadScope.IN_PLACE);
        EngineRequest asked = job.request();
        assertFalse(asked.cancelled());
        mayContinue.set(false);
        assertTrue(asked.cancelled(), "asked, without any timer noticing first");
    }

    @Test
    void stoppingTheJobCancelsTheEngineCall() {
        EngineJob job = new EngineJob(CLAIM, new ExecutionPreparation.Prepared(new Recording(), EngineInputs.NONE),
                RunProgress.silent(), () -> true, ReadScope.IN_PLACE);
        EngineRequest asked = job.request();
        job.stop();
        assertTrue(asked.cancelled());
    }

    @Test
    void whatTheEngineReadsIsReadOnceOnlyWhenAskedAndInTheReadScope() {
        AtomicInteger reads = new AtomicInteger();
        AtomicInteger inScope = new AtomicInteger();
        ThreadLocal<Boolean> scoped = ThreadLocal.withInitial(() -> false);
        ReadScope scope = new ReadScope() {
            @Override
            public <T> T read(java.util.function.Supplier<T> read) {
                scoped.set(true);
                try {
                    return read.get();
                } finally {
                    scoped.set(false);
                }
            }
        };
        EngineInputs inputs = EngineInputs.NONE.withHistory(() -> {
            reads.incrementAndGet();
            if (scoped.get()) {
                inScope.incrementAndGet();
            }
            return List.of(Json.createObjectBuilder().add("role", "user").build());
        });
        EngineJob job = new EngineJob(CLAIM, new ExecutionPreparation.Prepared(new Recording(), inputs),
                RunProgress.silent(), () -> true, scope);
        EngineRequest asked = job.request();
        assertEquals(0, reads.get(), "nothing read before the engine asks");
        asked.history().get();
        asked.history().get();
        assertEquals(1, reads.get());
        assertEquals(1, inScope.get(), "read inside the scope, where the container returns its connection");
    }

    @Test
    void everyPreparationIsAppliedInTheOrderGiven() {
        Recording engine = new Recording();
        List<String> order = new ArrayList<>();
        ExecutionPreparation first = preparation(100, "first", order);
        ExecutionPreparation second = preparation(200, "second", order);
        ExecutionPreparation.Prepared start = new ExecutionPreparation.Prepared(engine, EngineInputs.NONE);
        ExecutionPreparation.Prepared prepared = EngineWork.prepared(CLAIM, List.of(first, second), start);
        assertEquals(List.of("first", "second"), order);
        assertSame(engine, prepared.engine());
    }

    private static ExecutionPreparation preparation(int order, String name, List<String> seen) {
        return new ExecutionPreparation() {
            @Override
            public int order() {
                return order;
            }

            @Override
            public Prepared prepare(Claim claim, Prepared prepared) {
                seen.add(name);
                return prepared;
            }
        };
    }

}
