package dev.switchboard.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.JsonObject;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.ResourceAccessMode;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * One Switchboard drives another: the downstream instance runs the {@code openresponses} engine
 * (with {@code echo_tool}) against the upstream instance's {@code POST /v1/responses} on the echo
 * engine. A message to downstream streams through upstream and back; the tool loop crosses the
 * two: upstream's echo, offered downstream's tools, calls {@code echo_tool}; downstream runs it
 * and sends the output back; upstream answers with it.
 *
 * <p>Upstream is {@link ResponsesIT}'s echo instance (one Liberty start fewer), held to write as
 * that class holds it, so the two never run at once. Its 300 ms echo delay only makes the two
 * model calls slower; its other settings (a pool of 15 connections, a WebSocket lifetime) are
 * not what this class's HTTP requests meet. Not the shared instance: its scripted engine gives a
 * client's model request no function call, and the tool loop is what crosses the two instances.
 */
@ResourceLock(value = ResponsesIT.LOCK, mode = ResourceAccessMode.READ_WRITE)
class InstanceDrivesInstanceIT {

    private static final int UPSTREAM = ResponsesIT.PORT;
    private static final int DOWNSTREAM = 9210;
    private static Instance downstream;
    private static Api api;
    private static Api upstreamApi;

    @BeforeAll
    static void start() {
        upstreamApi = ResponsesIT.instance().api;
        Map<String, String> down = Instance.defaults(TestDatabase.recreate("switchboard_it_downstream"), DOWNSTREAM,
                "it-downstream");
        down.put("SWITCHBOARD_ENGINE", "openresponses");
        down.put("SWITCHBOARD_ENGINE_OPENRESPONSES_BASE_URL", "http://127.0.0.1:" + UPSTREAM + "/v1");
        down.put("SWITCHBOARD_ENGINE_OPENRESPONSES_MODEL", "upstream-echo");
        down.put("SWITCHBOARD_TOOLS", "echo_tool");
        downstream = Instance.start("it-downstream", DOWNSTREAM, down);
        api = new Api("http://127.0.0.1:" + DOWNSTREAM);
    }

    @AfterAll
    static void stop() {
        try {
            if (downstream != null) {
                downstream.stop();
            }
        } finally {
            ResponsesIT.finished(InstanceDrivesInstanceIT.class);
        }
    }

    @Test
    void aMessageRunsThroughTheOtherInstanceAndTheToolLoopCrossesBoth() {
        JsonObject run = api.awaitRun(api.message("crossing", "carry this").getString("run_id"), 60);
        assertEquals("succeeded", run.getString("status"), run.toString());
        JsonObject output = run.getJsonObject("output");
        assertEquals("upstream-echo", output.getString("model"), "upstream echoed the model downstream asked for");
        assertTrue(output.getString("response_id").startsWith("resp_"), output.toString());
        String text = output.getString("text");
        assertTrue(text.startsWith("function call_") && text.endsWith(" returned: carry this"),
                "upstream called echo_tool with the text, downstream ran it, upstream answered with its output: " + text);
        List<String> steps = output.getJsonArray("items").getValuesAs(JsonObject.class).stream()
                .map(i -> i.getString("type")).toList();
        assertEquals(List.of("function_call", "function_call_output"), steps);
        assertEquals("carry this", output.getJsonArray("items").getJsonObject(1).getString("output"));
        assertTrue(output.getJsonObject("usage").getInt("input_tokens") > 0);

        List<String> history = api.get("/v1/threads/crossing/items").json().getJsonArray("items")
                .getValuesAs(JsonObject.class).stream().map(e -> e.getJsonObject("item").getString("type")).toList();
        assertEquals(List.of("message", "function_call", "function_call_output", "message"), history);

        // Downstream asked with store: false, so upstream kept none of it.
        assertEquals(404, upstreamApi.get("/v1/responses/" + output.getString("response_id")).status());
    }
}
