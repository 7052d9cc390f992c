package dev.switchboard.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.JsonObject;
import java.net.http.HttpRequest;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.ResourceAccessMode;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * Switchboard drives Switchboard: a thread that chose the {@code openresponses} engine (with
 * {@code echo_tool}) has for its model server the {@code POST /v1/responses} of an instance on the
 * echo engine — here the same instance, {@link ResponsesIT}'s, so that the wire crossed is the same
 * as between two instances for one Liberty start fewer. A message to the thread streams through the
 * Responses API and back; the tool loop crosses both sides: the echo model, offered the thread's
 * tools, calls {@code echo_tool}; the thread's engine runs it and sends the output back; the model
 * answers with it.
 *
 * <p>Held to write as ResponsesIT holds it, so the two never run at once. Its 300 ms echo delay
 * only makes the two model calls slower; its other settings (a pool of 15 connections, a
 * WebSocket lifetime) are not what this class's HTTP requests meet. Not the shared instance: its
 * scripted engine gives a client's model request no function call, and the tool loop is what
 * crosses the two sides.
 */
@ResourceLock(value = ResponsesIT.LOCK, mode = ResourceAccessMode.READ_WRITE)
class InstanceDrivesInstanceIT {

    /** The model the thread asks its model server for (the echo engine answers under any name). */
    static final String MODEL = "upstream-echo";
    private static Api api;

    @BeforeAll
    static void start() {
        api = ResponsesIT.instance().api;
    }

    @AfterAll
    static void stop() {
        ResponsesIT.finished(InstanceDrivesInstanceIT.class);
    }

    @Test
    void aMessageRunsThroughTheModelServerEngineAndTheToolLoopCrossesBothSides() {
        Api.Reply chosen = api.send(api.request("/v1/threads/crossing/model").header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString("{\"provider\":\"openresponses\",\"model_id\":\"" + MODEL + "\"}")));
        assertEquals(200, chosen.status(), chosen.body());
        JsonObject run = api.awaitRun(api.message("crossing", "carry this").getString("run_id"), 60);
        assertEquals("succeeded", run.getString("status"), run.toString());
        JsonObject output = run.getJsonObject("output");
        assertEquals("upstream-echo", output.getString("model"), "the echo model echoed the model name the engine asked for");
        assertTrue(output.getString("response_id").startsWith("resp_"), output.toString());
        String text = output.getString("text");
        assertTrue(text.startsWith("function call_") && text.endsWith(" returned: carry this"),
                "the model called echo_tool with the text, the engine ran it, the model answered with its output: " + text);
        List<String> steps = output.getJsonArray("items").getValuesAs(JsonObject.class).stream()
                .map(i -> i.getString("type")).toList();
        assertEquals(List.of("function_call", "function_call_output"), steps);
        assertEquals("carry this", output.getJsonArray("items").getJsonObject(1).getString("output"));
        assertTrue(output.getJsonObject("usage").getInt("input_tokens") > 0);

        List<String> history = api.get("/v1/threads/crossing/items").json().getJsonArray("items")
                .getValuesAs(JsonObject.class).stream().map(e -> e.getJsonObject("item").getString("type")).toList();
        assertEquals(List.of("message", "function_call", "function_call_output", "message"), history);

        // The engine asked with store: false, so the Responses API kept none of it.
        assertEquals(404, api.get("/v1/responses/" + output.getString("response_id")).status());
    }
}
