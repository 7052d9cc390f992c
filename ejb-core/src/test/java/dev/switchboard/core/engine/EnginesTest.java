package dev.switchboard.core.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EnginesTest {

    private static final ScheduledExecutorService TIMER = Executors.newSingleThreadScheduledExecutor();

    @AfterAll
    static void stop() {
        TIMER.shutdownNow();
    }

    private static EngineRequest request(String text, String mode) {
        return new EngineRequest("r1", "local", "cli:default", text, mode, 1, Cancellation.manual());
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
    void scriptedTellsTheHistoryItWasGivenAndReadsItOnlyWhenAsked() throws Exception {
        AtomicInteger reads = new AtomicInteger();
        List<JsonObject> history = List.of(
                Json.createObjectBuilder().add("type", "message").add("role", "user").add("content",
                        Json.createArrayBuilder().add(Json.createObjectBuilder().add("type", "input_text").add("text", "hi")))
                        .build(),
                Json.createObjectBuilder().add("type", "message").add("role", "assistant").add("content",
                        Json.createArrayBuilder().add(Json.createObjectBuilder().add("type", "output_text").add("text", "hello")))
                        .build());
        EngineRequest asking = new EngineRequest("r1", "u", "t", "history", "followUp", 1, Cancellation.manual(), () -> {
            reads.incrementAndGet();
            return history;
        });
        assertEquals("history(2): user: hi | assistant: hello", run(new ScriptedEngine(TIMER), asking).getString("text"));
        assertEquals(1, reads.get());
        EngineRequest notAsking = new EngineRequest("r2", "u", "t", "just text", "followUp", 1, Cancellation.manual(),
                () -> {
                    reads.incrementAndGet();
                    return history;
                });
        assertEquals("just text", run(new ScriptedEngine(TIMER), notAsking).getString("text"));
        assertEquals(1, reads.get(), "an engine that does not ask reads no history");
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
        EngineRequest cancelled = new EngineRequest("r1", "local", "t", "sleep 10; x", "followUp", 1,
                new Cancellation(() -> false));
        ExecutionException e = assertThrows(ExecutionException.class, () -> run(new ScriptedEngine(TIMER), cancelled));
        assertEquals("cancelled", e.getCause().getMessage());
    }

    @Test
    void scriptedStopsItsSleepAtOnceWhenCancelled() throws Exception {
        Cancellation cancellation = Cancellation.manual();
        EngineRequest call = new EngineRequest("r1", "local", "t", "sleep 60000; never", "followUp", 1, cancellation);
        var result = new ScriptedEngine(TIMER).execute(call).toCompletableFuture();
        long start = System.nanoTime();
        cancellation.cancel();
        ExecutionException e = assertThrows(ExecutionException.class, () -> result.get(5, TimeUnit.SECONDS));
        assertEquals("cancelled", e.getCause().getMessage());
        assertTrue((System.nanoTime() - start) / 1_000_000 < 1_000, "interrupted, not at the end of its sleep");
    }

    @Test
    void scriptedJournalsStartAndEndWithTheWorkDoneBeforeACancellation(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("journal.jsonl");
        ScriptedEngine engine = new ScriptedEngine(TIMER, EngineJournal.to(file, "test-instance"));
        run(engine, new EngineRequest("done", "u", "t", "sleep 30; ok", "followUp", 1, Cancellation.manual()));
        Cancellation cancellation = Cancellation.manual();
        var cancelled = engine.execute(new EngineRequest("stopped", "u", "t", "sleep 60000; x", "followUp", 2,
                cancellation)).toCompletableFuture();
        cancellation.cancel();
        assertThrows(ExecutionException.class, () -> cancelled.get(5, TimeUnit.SECONDS));

        List<JsonObject> lines = Files.readAllLines(file).stream()
                .map(l -> Json.createReader(new StringReader(l)).readObject()).toList();
        List<String> events = lines.stream().map(l -> l.getString("run") + ":" + l.getString("event")
                + (l.containsKey("outcome") ? ":" + l.getString("outcome") : "")).toList();
        assertEquals(List.of("done:start", "done:end:completed", "stopped:start", "stopped:end:cancelled"), events);
        JsonObject end = lines.get(3);
        assertEquals("test-instance", end.getString("instance"));
        assertEquals(2, end.getInt("attempt"));
        assertEquals("u/t", end.getString("thread"));
        assertTrue(end.getJsonNumber("progress_at").longValue() <= end.getJsonNumber("at").longValue());
        assertTrue(lines.get(0).getJsonNumber("at").longValue() <= lines.get(1).getJsonNumber("at").longValue());
    }

    private static JsonObject json(String text) {
        return Json.createReader(new StringReader(text)).readObject();
    }

    private static JsonObject answerOf(ClientCall call, List<String> deltas) throws Exception {
        RunStream stream = new RunStream() {
            @Override
            public void textDelta(String text) {
                deltas.add(text);
            }

            @Override
            public void item(JsonObject item) {
            }
        };
        return run(new EchoEngine(0, TIMER), new EngineRequest("r", "u", "t", "", "followUp", 1, Cancellation.manual(),
                () -> List.of(json("{\"type\":\"message\",\"role\":\"user\",\"content\":\"earlier words\"}")),
                () -> call, stream));
    }

    @Test
    void echoGivesAClientsRequestEveryOutputShape() throws Exception {
        jakarta.json.JsonArray tools = Json.createArrayBuilder()
                .add(json("{\"type\":\"function\",\"name\":\"first\",\"parameters\":{\"type\":\"object\","
                        + "\"properties\":{\"city\":{\"type\":\"string\"},\"n\":{\"type\":\"integer\"},"
                        + "\"unit\":{\"type\":\"string\",\"enum\":[\"c\",\"f\"]}},\"required\":[\"city\",\"n\",\"unit\"]}}"))
                .add(json("{\"type\":\"function\",\"name\":\"second\"}")).build();
        JsonObject ask = json("{\"type\":\"message\",\"role\":\"user\",\"content\":\"in Paris\"}");
        List<String> deltas = new java.util.ArrayList<>();

        JsonObject called = answerOf(new ClientCall(List.of(ask), java.util.Optional.empty(), java.util.Optional.empty(), tools,
                Json.createValue("auto"), java.util.Optional.empty()), deltas);
        JsonObject call = called.getJsonArray("items").getJsonObject(0);
        assertEquals("first", call.getString("name"));
        assertEquals(json("{\"city\":\"in Paris\",\"n\":0,\"unit\":\"c\"}"), json(call.getString("arguments")));
        assertEquals(4, called.getJsonObject("usage").getInt("input_tokens"), "history and input words");

        JsonObject allowed = answerOf(new ClientCall(List.of(ask), java.util.Optional.empty(), java.util.Optional.empty(),
                tools, json("{\"type\":\"allowed_tools\",\"tools\":[{\"type\":\"function\",\"name\":\"second\"}]}"),
                java.util.Optional.empty()), deltas);
        assertEquals("second", allowed.getJsonArray("items").getJsonObject(0).getString("name"));

        JsonObject answered = answerOf(new ClientCall(List.of(json("{\"type\":\"function_call_output\",\"call_id\":\"c1\","
                + "\"output\":\"18 degrees\"}")), java.util.Optional.empty(), java.util.Optional.empty(), tools,
                Json.createValue("auto"), java.util.Optional.empty()), deltas);
        assertEquals("function c1 returned: 18 degrees", answered.getString("text"));

        deltas.clear();
        JsonObject talked = answerOf(new ClientCall(List.of(json("{\"type\":\"message\",\"role\":\"user\","
                + "\"content\":\"one two three four five six seven eight\"}")), java.util.Optional.empty(),
                java.util.Optional.empty(), tools, Json.createValue("none"), java.util.Optional.empty()), deltas);
        assertEquals("one two three four five six seven eight", talked.getString("text"));
        assertTrue(deltas.size() > 1, "several deltas: " + deltas);
        assertEquals(talked.getString("text"), String.join("", deltas));
    }
}
