package dev.switchboard.core.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.JsonObject;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

class EnginesTest {

    private static final ScheduledExecutorService TIMER = Executors.newSingleThreadScheduledExecutor();

    @AfterAll
    static void stop() {
        TIMER.shutdownNow();
    }

    private static EngineRequest request(String text, String mode) {
        return new EngineRequest("r1", "local", "cli:default", text, mode, 1, () -> false);
    }

    private static JsonObject run(AgentEngine engine, EngineRequest request) throws Exception {
        return engine.execute(request).toCompletableFuture().get(5, TimeUnit.SECONDS);
    }

    @Test
    void echoAnswersJagcsMessageShapeAfterItsDelay() throws Exception {
        long start = System.nanoTime();
        JsonObject out = run(new EchoEngine(50, TIMER), request("ping", "steer"));
        long tookMs = (System.nanoTime() - start) / 1_000_000;
        assertEquals("{\"type\":\"message\",\"text\":\"ping\",\"delivery_mode\":\"steer\"}", out.toString());
        assertTrue(tookMs >= 45, "echo waited " + tookMs + " ms");
    }

    @Test
    void echoKeepsTextUntrimmed() throws Exception {
        assertEquals("   ", run(new EchoEngine(0, TIMER), request("   ", "followUp")).getString("text"));
        assertThrows(IllegalArgumentException.class, () -> new EchoEngine(-1, TIMER));
    }

    @Test
    void scriptedFailsWithTheScriptsMessage() {
        ExecutionException e = assertThrows(ExecutionException.class,
                () -> run(new ScriptedEngine(TIMER), request("fail agent exploded", "followUp")));
        assertInstanceOf(EngineFailure.class, e.getCause());
        assertEquals("agent exploded", e.getCause().getMessage());
    }

    @Test
    void scriptedSleepsThenEchoesTheRest() throws Exception {
        long start = System.nanoTime();
        JsonObject out = run(new ScriptedEngine(TIMER), request("sleep 60; hello", "followUp"));
        assertTrue((System.nanoTime() - start) / 1_000_000 >= 55);
        assertEquals("hello", out.getString("text"));
    }

    @Test
    void scriptedWithoutDirectivesIsAnEcho() throws Exception {
        assertEquals("just text", run(new ScriptedEngine(TIMER), request("just text", "followUp")).getString("text"));
    }

    @Test
    void scriptedHonoursCancellation() {
        EngineRequest cancelled = new EngineRequest("r1", "local", "t", "sleep 10; x", "followUp", 1, () -> true);
        ExecutionException e = assertThrows(ExecutionException.class, () -> run(new ScriptedEngine(TIMER), cancelled));
        assertEquals("cancelled", e.getCause().getMessage());
    }
}
