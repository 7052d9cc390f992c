package dev.switchboard.core.delegation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.switchboard.core.engine.AgentEngine;
import dev.switchboard.core.engine.Cancellation;
import dev.switchboard.core.engine.EngineRequest;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.junit.jupiter.api.Test;

/** The handlers' concurrency limits, observed in the engine the gate wraps. */
class HandlerGateTest {

    /** An engine whose executions end when the test says; it counts how many run at once. */
    private static final class HeldEngine implements AgentEngine {
        final List<CompletableFuture<JsonObject>> calls = new ArrayList<>();
        int now;
        int most;

        @Override
        public String name() {
            return "held";
        }

        @Override
        public synchronized CompletionStage<JsonObject> execute(EngineRequest request) {
            now++;
            most = Math.max(most, now);
            CompletableFuture<JsonObject> call = new CompletableFuture<>();
            calls.add(call);
            return call.whenComplete((o, e) -> {
                synchronized (this) {
                    now--;
                }
            });
        }

        void finish(int i) {
            calls.get(i).complete(JsonValue.EMPTY_JSON_OBJECT);
        }
    }

    private static EngineRequest request(Cancellation c) {
        return new EngineRequest("r", "u", "t", "x", "followUp", 1, c);
    }

    @Test
    void noMoreThanTheAgentsLimitExecuteAtOnceAndAnEndLetsTheNextIn() {
        HandlerGate gate = new HandlerGate(20, 2);
        HeldEngine engine = new HeldEngine();
        AgentEngine search = gate.gate(engine, "search");
        List<CompletionStage<JsonObject>> stages = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            stages.add(search.execute(request(Cancellation.manual())));
        }
        assertEquals(2, engine.calls.size(), "two execute, three wait");
        assertEquals(3, gate.waiting());
        engine.finish(0);
        assertEquals(3, engine.calls.size());
        assertTrue(stages.get(0).toCompletableFuture().isDone());
        engine.finish(1);
        engine.finish(2);
        engine.finish(3);
        engine.finish(4);
        assertTrue(stages.stream().allMatch(s -> s.toCompletableFuture().isDone()));
        assertEquals(2, engine.most);
        assertEquals(0, gate.running());
    }

    @Test
    void theGlobalLimitHoldsAcrossAgentsAndAWaiterOfAFreeAgentIsNotStuckBehindAFullOne() {
        HandlerGate gate = new HandlerGate(3, 2);
        HeldEngine engine = new HeldEngine();
        AgentEngine a = gate.gate(engine, "a");
        AgentEngine b = gate.gate(engine, "b");
        a.execute(request(Cancellation.manual()));
        a.execute(request(Cancellation.manual()));
        a.execute(request(Cancellation.manual())); // a is full: waits
        b.execute(request(Cancellation.manual()));
        assertEquals(3, engine.calls.size(), "b went in beside a's two; a's third waits");
        assertEquals(1, gate.waiting());
        b.execute(request(Cancellation.manual()));
        assertEquals(3, engine.calls.size(), "the global limit of 3 holds");
        engine.finish(2); // b's first ends: the global place goes to a waiter the agent limit admits
        assertEquals(4, engine.calls.size());
        assertEquals(1, gate.running("b"), "b's second went in; a's third still waits for an a place");
    }

    @Test
    void aHandlerCancelledWhileWaitingLeavesTheQueueAndNeverExecutes() {
        HandlerGate gate = new HandlerGate(1, 1);
        HeldEngine engine = new HeldEngine();
        AgentEngine a = gate.gate(engine, "a");
        a.execute(request(Cancellation.manual()));
        Cancellation cancellation = Cancellation.manual();
        CompletionStage<JsonObject> waiting = a.execute(request(cancellation));
        cancellation.cancel();
        assertTrue(waiting.toCompletableFuture().isCompletedExceptionally());
        assertEquals(0, gate.waiting());
        engine.finish(0);
        assertEquals(1, engine.calls.size(), "the cancelled handler never executed");
        assertEquals(0, gate.running());
        assertFalse(engine.calls.isEmpty());
    }
}
