package dev.switchboard.core.engine;

import static dev.switchboard.core.engine.ScriptedModelServer.data;
import static dev.switchboard.core.engine.ScriptedModelServer.frame;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.switchboard.core.engine.model.ChatCompletionsWire;
import dev.switchboard.core.engine.model.ModelWire;
import dev.switchboard.core.engine.model.ResponsesWire;
import dev.switchboard.core.engine.tool.CurrentTimeTool;
import dev.switchboard.core.engine.tool.EchoTool;
import dev.switchboard.core.engine.tool.ToolBox;
import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import java.io.IOException;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The {@code openresponses} engine against {@link ScriptedModelServer} on loopback, over real
 * HTTP: both wire formats, streamed and whole answers, the tool loop, errors, retries and
 * cancellation. What the engine shows of a run is caught by a recording {@link RunStream}.
 */
class ModelServerEngineTest {

    private static final String KEY = "sk-test-secret-0123456789";

    private ScriptedModelServer server;
    private ScheduledExecutorService timer;
    private final List<String> shown = new CopyOnWriteArrayList<>();
    private final RunStream recording = new RunStream() {
        @Override
        public void textDelta(String text) {
            shown.add("delta:" + text);
        }

        @Override
        public void item(JsonObject item) {
            shown.add(item.getString("type") + ":" + item.getString("name", item.getString("output", "")));
        }
    };

    @BeforeEach
    void start() throws IOException {
        timer = Executors.newSingleThreadScheduledExecutor();
        server = new ScriptedModelServer();
    }

    @AfterEach
    void stop() {
        server.close();
        timer.shutdownNow();
    }

    private ModelServerEngine engine(int retries) {
        return engine(retries, new ResponsesWire(), ToolBox.EMPTY, 8);
    }

    private ModelServerEngine engine(int retries, ModelWire wire, ToolBox tools, int maxToolSteps) {
        return new ModelServerEngine(new ModelServerEngine.Settings(server.base(), Optional.of(KEY), "test-model",
                Optional.of("Be brief."), Duration.ofSeconds(5), Optional.of(64), retries, wire, tools, maxToolSteps,
                ToolApprovals.NONE_NEEDED), HttpClient.newHttpClient(), timer);
    }

    private EngineRequest request(String text, List<JsonObject> history, Cancellation cancellation) {
        return new EngineRequest("run-1", "u", "t", text, "followUp", 1, cancellation, () -> history, recording);
    }

    private static JsonObject run(ModelServerEngine engine, EngineRequest request) throws Exception {
        return engine.execute(request).toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    private static String failure(ModelServerEngine engine, EngineRequest request) {
        ExecutionException e = assertThrows(ExecutionException.class,
                () -> engine.execute(request).toCompletableFuture().get(10, TimeUnit.SECONDS));
        assertInstanceOf(EngineFailure.class, e.getCause());
        return e.getCause().getMessage();
    }

    private static JsonObject userItem(String text) {
        return Json.createObjectBuilder().add("type", "message").add("id", "msg_h").add("status", "completed")
                .add("role", "user").add("content", Json.createArrayBuilder()
                        .add(Json.createObjectBuilder().add("type", "input_text").add("text", text)))
                .build();
    }

    private static JsonObject message(String text) {
        return Json.createObjectBuilder().add("type", "message").add("id", "msg_1").add("role", "assistant")
                .add("status", "completed").add("content", Json.createArrayBuilder()
                        .add(Json.createObjectBuilder().add("type", "output_text").add("text", text)
                                .add("annotations", Json.createArrayBuilder())))
                .build();
    }

    private static JsonObject functionCall(String callId, String name, String arguments) {
        return Json.createObjectBuilder().add("type", "function_call").add("id", "fc_" + callId).add("call_id", callId)
                .add("name", name).add("arguments", arguments).add("status", "completed").build();
    }

    private static JsonObject response(String id, int inputTokens, JsonObject... output) {
        var items = Json.createArrayBuilder();
        for (JsonObject item : output) {
            items.add(item);
        }
        return Json.createObjectBuilder()
                .add("id", id).add("object", "response").add("status", "completed").add("model", "test-model")
                .add("output", items)
                .add("usage", Json.createObjectBuilder().add("input_tokens", inputTokens).add("output_tokens", 3)
                        .add("total_tokens", inputTokens + 3))
                .build();
    }

    private static String event(String type, int seq, String key, JsonObject value) {
        return frame(Json.createObjectBuilder().add("type", type).add("sequence_number", seq).add(key, value).build());
    }

    private static String delta(int seq, String text) {
        return frame(Json.createObjectBuilder().add("type", "response.output_text.delta").add("sequence_number", seq)
                .add("item_id", "msg_1").add("output_index", 0).add("content_index", 0).add("delta", text).build());
    }

    /** A streamed Open Responses answer: created, the text in deltas, completed. */
    private static List<String> streamed(String id, String... deltas) {
        List<String> frames = new ArrayList<>();
        frames.add(event("response.created", 0, "response", Json.createObjectBuilder().add("id", id)
                .add("status", "in_progress").add("output", Json.createArrayBuilder()).build()));
        int seq = 1;
        for (String d : deltas) {
            frames.add(delta(seq++, d));
        }
        frames.add(event("response.completed", seq, "response", response(id, 12, message(String.join("", deltas)))));
        return frames;
    }

    @Test
    void streamsTheRepliesTextAsItArrivesAndAnswersWithTheCompletedResponse() throws Exception {
        server.stream(streamed("resp_1", "Pa", "ri", "s."));
        JsonObject output = run(engine(0), request("And of France?", List.of(userItem("capital of Italy?")),
                Cancellation.manual()));
        assertEquals("Paris.", output.getString("text"));
        assertEquals("message", output.getString("type"));
        assertEquals("resp_1", output.getString("response_id"));
        assertEquals(12, output.getJsonObject("usage").getInt("input_tokens"));
        assertEquals(3, output.getJsonObject("usage").getInt("output_tokens"));
        assertFalse(output.containsKey("items"), "no tool steps");
        assertEquals(List.of("delta:Pa", "delta:ri", "delta:s."), shown);
        assertFalse(output.toString().contains(KEY));

        ScriptedModelServer.Seen call = server.seen.get(0);
        assertEquals("/v1/responses", call.path());
        assertEquals("Bearer " + KEY, call.authorization());
        assertEquals("test-model", call.body().getString("model"));
        assertEquals("Be brief.", call.body().getString("instructions"));
        assertEquals(64, call.body().getInt("max_output_tokens"));
        assertTrue(call.body().getBoolean("stream"));
        assertFalse(call.body().getBoolean("store"));
        assertFalse(call.body().containsKey("tools"), "no tools offered when none are configured");
        JsonArray input = call.body().getJsonArray("input");
        assertEquals(2, input.size());
        assertEquals("capital of Italy?", input.getJsonObject(0).getJsonArray("content").getJsonObject(0).getString("text"));
        assertFalse(input.getJsonObject(0).containsKey("id"), "stored ids are not sent to a server that stores nothing");
        assertEquals("user", input.getJsonObject(1).getString("role"));
        assertEquals("And of France?", input.getJsonObject(1).getJsonArray("content").getJsonObject(0).getString("text"));
    }

    @Test
    void aServerThatAnswersWholeIsReadToo() throws Exception {
        server.whole(200, response("resp_w", 5, message("whole")).toString());
        JsonObject output = run(engine(0), request("x", List.of(), Cancellation.manual()));
        assertEquals("whole", output.getString("text"));
        assertEquals(List.of(), shown);
    }

    @Test
    void aClientErrorFailsTheRunWithTheServersMessageAndIsNotRetried() {
        server.whole(400, "{\"error\":{\"type\":\"invalid_request_error\",\"message\":\"model not found\"}}");
        server.stream(streamed("never", "never"));
        assertEquals("model server answered 400: model not found", failure(engine(3), request("x", List.of(),
                Cancellation.manual())));
        assertEquals(1, server.seen.size());
    }

    @Test
    void anInputLongerThanTheModelsContextIsCutToTheNewestExchangeAndTriedOnce() throws Exception {
        server.whole(400, "{\"error\":{\"code\":\"context_length_exceeded\",\"message\":\"too long\"}}");
        server.stream(streamed("resp_2", "fits now"));
        JsonObject output = run(engine(0), request("newest", List.of(userItem("old one"), userItem("old two")),
                Cancellation.manual()));
        assertEquals("fits now", output.getString("text"));
        assertTrue(output.getBoolean("context_compacted"));
        JsonArray retried = server.seen.get(1).body().getJsonArray("input");
        assertEquals(2, retried.size(), retried.toString());
        assertEquals(ContextOverflow.NOTE, retried.getJsonObject(0).getJsonArray("content").getJsonObject(0).getString("text"));
        assertEquals("newest", retried.getJsonObject(1).getJsonArray("content").getJsonObject(0).getString("text"));

        server.whole(400, "{\"error\":{\"code\":\"context_length_exceeded\",\"message\":\"too long\"}}");
        server.whole(400, "{\"error\":{\"code\":\"context_length_exceeded\",\"message\":\"still too long\"}}");
        assertEquals("model server answered 400: still too long", failure(engine(0), request("newest",
                List.of(userItem("old")), Cancellation.manual())), "tried once only");
        assertEquals(4, server.seen.size());
    }

    @Test
    void transientFailuresAreTriedAgainUpToTheLimit() throws Exception {
        server.whole(503, "{}");
        server.whole(429, "{\"error\":{\"message\":\"slow down\"}}");
        server.stream(streamed("resp_ok", "ok"));
        assertEquals("ok", run(engine(2), request("x", List.of(), Cancellation.manual())).getString("text"));
        assertEquals(3, server.seen.size());

        server.seen.clear();
        server.whole(502, "bad gateway");
        server.whole(502, "bad gateway");
        assertEquals("model server answered 502: bad gateway", failure(engine(1), request("x", List.of(),
                Cancellation.manual())));
        assertEquals(2, server.seen.size());
    }

    @Test
    void anErrorEventMidStreamFailsTheRunWithItsMessageAndIsNotRetried() {
        server.stream(List.of(delta(1, "Hal"), frame(Json.createObjectBuilder().add("type", "error")
                .add("sequence_number", 2).add("error", Json.createObjectBuilder().add("type", "server_error")
                        .add("code", "model_error").add("message", "upstream model failed")).build()),
                event("response.failed", 3, "response", Json.createObjectBuilder().add("id", "resp_f")
                        .add("status", "failed").build())));
        server.stream(streamed("never", "never"));
        assertEquals("the model server reported an error: upstream model failed",
                failure(engine(3), request("x", List.of(), Cancellation.manual())));
        assertEquals(List.of("delta:Hal"), shown);
        assertEquals(1, server.seen.size());
    }

    @Test
    void aStreamThatEndsUnfinishedFailsTheRun() {
        server.stream(List.of(delta(1, "cut o")));
        assertEquals("the model's stream ended before response.completed",
                failure(engine(0), request("x", List.of(), Cancellation.manual())));
    }

    @Test
    void cancellingTheRunMidStreamStopsIt() throws Exception {
        CountDownLatch hold = new CountDownLatch(1);
        List<String> frames = streamed("resp_c", "first", "never shown");
        server.streamHeld(frames, 2, hold);
        Cancellation cancellation = Cancellation.manual();
        var call = engine(3).execute(request("x", List.of(), cancellation)).toCompletableFuture();
        awaitTrue(() -> shown.contains("delta:first"), "the first delta arrives before the stream is held");
        cancellation.cancel();
        ExecutionException e = assertThrows(ExecutionException.class, () -> call.get(10, TimeUnit.SECONDS));
        assertEquals("cancelled", e.getCause().getMessage());
        hold.countDown();
        assertEquals(List.of("delta:first"), shown);
        assertEquals(1, server.seen.size(), "a cancelled run is not tried again");
    }

    @Test
    void anUnreachableServerFailsTheRunAfterItsRetries() {
        server.stop();
        String message = failure(engine(1), request("x", List.of(), Cancellation.manual()));
        assertTrue(message.startsWith("model server unreachable: "), message);
        assertFalse(message.contains(KEY));
    }

    @Test
    void aModelDelegatesThroughTheDelegateToolAndGoesOnWithTheRepliesWithoutBeingAskedAgain() throws Exception {
        server.stream(List.of(event("response.completed", 1, "response", response("resp_d1", 20,
                functionCall("call_a", "delegate", "{\"agent\":\"calc\",\"input\":\"2+2\"}"),
                functionCall("call_b", "delegate", "{\"agent\":\"lookup\",\"input\":\"pi\"}"),
                functionCall("call_c", "delegate", "not json")))));
        Delegation first = new Delegation("researcher", "p-1", "main", false, List::of, "You research.",
                List.of("calc", "lookup"), null);
        JsonObject asked = run(engine(0), delegated("what is 2+2 and pi?", first));
        assertEquals(List.of(new Delegation.Call(0, "calc", "2+2"), new Delegation.Call(1, "lookup", "pi"),
                new Delegation.Call(2, "", "")), Delegation.callsIn(asked).orElseThrow(), "a fork of three, one naming no agent");
        JsonObject request1 = server.seen.get(0).body();
        assertEquals("You research.", request1.getString("instructions"), "the agent's instructions");
        JsonObject tool = request1.getJsonArray("tools").getValuesAs(JsonObject.class).stream()
                .filter(t -> "delegate".equals(t.getString("name"))).findFirst().orElseThrow();
        assertEquals("[\"calc\",\"lookup\"]", tool.getJsonObject("parameters").getJsonObject("properties")
                .getJsonObject("agent").getJsonArray("enum").toString());

        server.stream(streamed("resp_d2", "4 and ", "3.14"));
        Delegation answered = new Delegation("researcher", "p-1", "main", false, () -> List.of(
                new Delegation.Reply(0, "calc", "reply", null, "4"),
                new Delegation.Reply(1, "search", "reply", null, "3.14"),
                new Delegation.Reply(1, "wiki", "ack", null, "ack"),
                new Delegation.Reply(2, "system", "error", "routing", "Message could not be delivered.")),
                "You research.", List.of("calc", "lookup"), Delegation.stateIn(asked));
        JsonObject done = run(engine(0), delegated("what is 2+2 and pi?", answered));
        assertEquals("4 and 3.14", done.getString("text"));
        assertEquals(2, server.seen.size(), "the model was asked once more, not from the start");
        List<JsonObject> input = server.seen.get(1).body().getJsonArray("input").getValuesAs(JsonObject.class);
        List<String> outputs = input.stream().filter(i -> "function_call_output".equals(i.getString("type")))
                .map(i -> i.getString("call_id") + "=" + i.getString("output")).toList();
        assertEquals(List.of("call_a=4", "call_b=search: 3.14\nwiki: ack",
                "call_c=SystemError{code: routing, message: Message could not be delivered.}"), outputs);
        assertEquals(3, input.stream().filter(i -> "function_call".equals(i.getString("type"))).count());
        assertEquals(6, done.getJsonArray("items").size(), "three calls and their outputs are the run's steps");
        assertEquals(32, done.getJsonObject("usage").getInt("input_tokens"), "both executions' tokens");
    }

    private EngineRequest delegated(String text, Delegation tree) {
        return new EngineRequest("run-1", "u", "t", text, "followUp", 1, Cancellation.manual(), List::of, null,
                ModelChoice.NONE, recording, null, () -> tree);
    }

    @Test
    void theToolLoopRunsTheCalledToolAndGivesTheModelItsOutput() throws Exception {
        server.stream(List.of(event("response.completed", 1, "response",
                response("resp_t1", 20, functionCall("call_1", "echo_tool", "{\"text\":\"pong\"}")))));
        server.stream(streamed("resp_t2", "the tool said ", "pong"));
        ToolBox tools = new ToolBox(List.of(new EchoTool()));
        JsonObject output = run(engine(0, new ResponsesWire(), tools, 8), request("ping the tool", List.of(),
                Cancellation.manual()));

        assertEquals("the tool said pong", output.getString("text"));
        assertEquals("resp_t2", output.getString("response_id"));
        assertEquals(32, output.getJsonObject("usage").getInt("input_tokens"), "both calls' tokens");
        assertEquals(6, output.getJsonObject("usage").getInt("output_tokens"));
        JsonArray steps = output.getJsonArray("items");
        assertEquals(2, steps.size());
        assertEquals("function_call", steps.getJsonObject(0).getString("type"));
        assertEquals("call_1", steps.getJsonObject(0).getString("call_id"));
        assertEquals("function_call_output", steps.getJsonObject(1).getString("type"));
        assertEquals("call_1", steps.getJsonObject(1).getString("call_id"));
        assertEquals("pong", steps.getJsonObject(1).getString("output"));
        assertEquals(List.of("function_call:echo_tool", "function_call_output:pong", "delta:the tool said ", "delta:pong"),
                shown);

        JsonObject first = server.seen.get(0).body();
        JsonObject tool = first.getJsonArray("tools").getJsonObject(0);
        assertEquals("function", tool.getString("type"));
        assertEquals("echo_tool", tool.getString("name"));
        assertEquals(List.of("text"), tool.getJsonObject("parameters").getJsonArray("required")
                .getValuesAs(jakarta.json.JsonString.class).stream().map(jakarta.json.JsonString::getString).toList());
        JsonArray second = server.seen.get(1).body().getJsonArray("input");
        assertEquals(3, second.size(), "the message, the call, its output");
        assertEquals("function_call", second.getJsonObject(1).getString("type"));
        assertEquals("{\"text\":\"pong\"}", second.getJsonObject(1).getString("arguments"));
        assertEquals("function_call_output", second.getJsonObject(2).getString("type"));
        assertEquals("pong", second.getJsonObject(2).getString("output"));
    }

    @Test
    void aModelChangesItsTurnsWorktreeThroughTheWorkspaceToolsAndTheTurnCommitsIt(@org.junit.jupiter.api.io.TempDir
            java.nio.file.Path root) throws Exception {
        server.stream(List.of(event("response.completed", 1, "response", response("resp_w1", 20,
                functionCall("call_1", "write_file", "{\"path\":\"src/a.txt\",\"content\":\"one\\n\"}"),
                functionCall("call_2", "apply_diff", "{\"diff\":\"--- a/src/a.txt\\n+++ b/src/a.txt\\n@@ -1 +1,2 @@\\n one\\n+two\\n\"}"),
                functionCall("call_3", "read_file", "{\"path\":\"../../etc/hostname\"}"),
                functionCall("call_4", "run", "{\"command\":[\"ls\",\"src\"]}")))));
        server.stream(streamed("resp_w2", "done"));
        var workspaces = new dev.switchboard.core.workspace.Workspaces(root, Optional.empty());
        var settings = new dev.switchboard.core.engine.tool.WorkspaceTools.Settings(
                java.util.Set.copyOf(dev.switchboard.core.engine.tool.WorkspaceTools.ALL),
                dev.switchboard.core.workspace.CommandPolicy.parse("ls"), Duration.ofSeconds(5), 4096,
                new dev.switchboard.core.workspace.BubblewrapSandbox(java.nio.file.Path.of("/usr/bin/bwrap"), 1 << 20));
        var io = Executors.newCachedThreadPool();
        try {
            WorkspaceTurn turn = new WorkspaceTurn(engine(0, new ResponsesWire(), ToolBox.EMPTY, 8), workspaces, settings,
                    io, new WorkspaceTurn.Turn(3, dev.switchboard.core.workspace.Workspaces.START, "run-1", 1, "t",
                            "turn-1", "run-1", null, "write it"), java.time.Clock.systemUTC());
            JsonObject output = turn.execute(request("write it", List.of(), Cancellation.manual()))
                    .toCompletableFuture().get(20, TimeUnit.SECONDS);

            assertEquals("done", output.getString("text"));
            List<String> offered = server.seen.get(0).body().getJsonArray("tools").getValuesAs(JsonObject.class).stream()
                    .map(t -> t.getString("name")).toList();
            assertEquals(dev.switchboard.core.engine.tool.WorkspaceTools.ALL, offered);
            JsonArray second = server.seen.get(1).body().getJsonArray("input");
            List<String> outputs = second.getValuesAs(JsonObject.class).stream()
                    .filter(i -> "function_call_output".equals(i.getString("type"))).map(i -> i.getString("output")).toList();
            assertEquals(List.of("wrote 4 bytes to src/a.txt", "applied; changed src/a.txt",
                    "error: ../../etc/hostname is outside the workspace", "a.txt\n"), outputs);
            JsonObject change = output.getJsonObject(WorkspaceTurn.OUTPUT_KEY);
            assertEquals("", change.getString("base"));
            assertEquals("src/a.txt", change.getJsonArray("files").getJsonObject(0).getString("path"));
            java.nio.file.Path record = workspaces.turnDir(3, "run-1");
            assertTrue(java.nio.file.Files.readString(record.resolve("changes.diff")).contains("+two"));
            JsonObject written = Json.createReader(new java.io.StringReader(
                    java.nio.file.Files.readString(record.resolve("turn.json")))).readObject();
            assertEquals(change.getString("commit"), written.getString("commit"));
            assertEquals("completed", written.getString("status"));
        } finally {
            io.shutdownNow();
        }
    }

    /** A client's request ({@code POST /responses}) declaring {@code get_weather}, with the given tool choice. */
    private EngineRequest clientRequest(String toolChoiceJson) {
        JsonObject request = Json.createObjectBuilder().add("model", "test-model").add("tools", Json.createArrayBuilder()
                .add(Json.createObjectBuilder().add("type", "function").add("name", "get_weather")
                        .add("description", "The weather").addNull("parameters").add("strict", false))
                .add(Json.createObjectBuilder().add("type", "function").add("name", "echo_tool")
                        .add("description", "The client's own echo").add("parameters", Json.createObjectBuilder()
                                .add("type", "object")).add("strict", false)))
                .add("tool_choice", Json.createReader(new java.io.StringReader(toolChoiceJson)).readValue()).build();
        ClientCall call = ClientCall.of(request, Json.createArrayBuilder().add(userItem("weather in Oslo?")).build());
        return new EngineRequest("run-1", "u", "t", "weather in Oslo?", "followUp", 1, Cancellation.manual(), List::of,
                () -> call, recording);
    }

    @Test
    void aCallOfAClientsToolEndsTheRunWithItAfterTheServersOwnCallsOfTheSameTurn() throws Exception {
        server.stream(List.of(event("response.completed", 1, "response", response("resp_c1", 5,
                functionCall("call_t", "current_time", "{}"), functionCall("call_w", "get_weather", "{\"city\":\"Oslo\"}")))));
        ToolBox tools = new ToolBox(List.of(new EchoTool(), new CurrentTimeTool(java.time.Clock.systemUTC())));
        JsonObject output = run(engine(0, new ResponsesWire(), tools, 8), clientRequest("\"auto\""));

        assertEquals(1, server.seen.size(), "the model is not called again: the client answers get_weather");
        JsonObject sent = server.seen.get(0).body();
        assertEquals(List.of("get_weather", "echo_tool", "current_time"), sent.getJsonArray("tools")
                .getValuesAs(JsonObject.class).stream().map(t -> t.getString("name")).toList(),
                "the client's tools, then the server's that they do not shadow");
        assertEquals("auto", sent.getString("tool_choice"));
        JsonArray steps = output.getJsonArray("items");
        assertEquals(List.of("function_call:current_time", "function_call_output:call_t", "function_call:get_weather"),
                steps.getValuesAs(JsonObject.class).stream().map(i -> i.getString("type") + ":"
                        + (i.containsKey("name") ? i.getString("name") : i.getString("call_id"))).toList());
    }

    @Test
    void theClientsToolChoiceReachesTheModelAndNoneOffersNoTools() throws Exception {
        for (String text : List.of("sunny", "rainy", "cloudy")) {
            server.stream(List.of(data("{\"id\":\"chatcmpl-" + text + "\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\""
                    + text + "\"},\"finish_reason\":\"stop\"}]}"), data("[DONE]")));
        }
        ModelServerEngine engine = engine(0, new ChatCompletionsWire(), new ToolBox(List.of(new EchoTool())), 8);
        run(engine, clientRequest("{\"type\":\"function\",\"name\":\"get_weather\"}"));
        run(engine, clientRequest("{\"type\":\"allowed_tools\",\"mode\":\"required\",\"tools\":[{\"type\":\"function\",\"name\":\"get_weather\"}]}"));
        run(engine, clientRequest("\"none\""));
        JsonObject named = server.seen.get(0).body();
        assertEquals("get_weather", named.getJsonObject("tool_choice").getJsonObject("function").getString("name"));
        assertEquals("object", named.getJsonArray("tools").getJsonObject(0).getJsonObject("function")
                .getJsonObject("parameters").getString("type"), "a tool without parameters gets an empty object schema");
        JsonObject required = server.seen.get(1).body();
        assertEquals("required", required.getString("tool_choice"));
        assertEquals(List.of("get_weather"), required.getJsonArray("tools").getValuesAs(JsonObject.class).stream()
                .map(t -> t.getJsonObject("function").getString("name")).toList(),
                "only the allowed tool; the server's echo_tool is shadowed by the client's");
        assertTrue(!server.seen.get(2).body().containsKey("tools"), "tool_choice none: no tools offered");
    }

    @Test
    void aToolThatFailsOrDoesNotExistAnswersTheModelWithTheErrorAndTheRunGoesOn() throws Exception {
        server.stream(List.of(event("response.completed", 1, "response", response("resp_1", 1,
                functionCall("call_a", "no_such_tool", "{}"), functionCall("call_b", "echo_tool", "{}")))));
        server.stream(streamed("resp_2", "sorry"));
        JsonObject output = run(engine(0, new ResponsesWire(), new ToolBox(List.of(new EchoTool())), 8),
                request("x", List.of(), Cancellation.manual()));
        assertEquals("sorry", output.getString("text"));
        JsonArray steps = output.getJsonArray("items");
        assertEquals("error: no tool named no_such_tool", steps.getJsonObject(1).getString("output"));
        assertEquals("error: missing required argument text", steps.getJsonObject(3).getString("output"));
    }

    @Test
    void aModelThatKeepsCallingToolsIsStoppedAtTheStepLimit() {
        for (int i = 0; i < 5; i++) {
            server.stream(List.of(event("response.completed", 1, "response",
                    response("resp_" + i, 1, functionCall("call_" + i, "echo_tool", "{\"text\":\"again\"}")))));
        }
        String message = failure(engine(0, new ResponsesWire(), new ToolBox(List.of(new EchoTool())), 2),
                request("loop", List.of(), Cancellation.manual()));
        assertEquals("the model asked for tools more than 2 times in one run"
                + " (switchboard.engine.openresponses.max-tool-steps)", message);
        assertEquals(3, server.seen.size());
    }

    /** An engine whose echo_tool waits for a person and whose current_time does not. */
    private ModelServerEngine pausingEngine() {
        return new ModelServerEngine(new ModelServerEngine.Settings(server.base(), Optional.empty(), "m", Optional.empty(),
                Duration.ofSeconds(5), Optional.empty(), 0, new ResponsesWire(),
                new ToolBox(List.of(new EchoTool(), new CurrentTimeTool(java.time.Clock.systemUTC()))), 8,
                (request, call) -> java.util.concurrent.CompletableFuture.completedFuture("echo_tool".equals(
                        call.getString("name")) ? ToolApprovals.Verdict.AWAIT_PERSON : ToolApprovals.Verdict.ALLOWED)),
                HttpClient.newHttpClient(), timer);
    }

    private EngineRequest resumption(List<JsonObject> history, ToolResumption resumption) {
        return new EngineRequest("run-2", "u", "t", resumption.toJson().toString(), "followUp", 1, Cancellation.manual(),
                () -> history, null, ModelChoice.NONE, recording, resumption);
    }

    @Test
    void aCallThatAwaitsAPersonEndsTheRunWithTheCallsLeftAndRunsNothingAfterIt() throws Exception {
        server.stream(List.of(event("response.completed", 1, "response", response("resp_1", 1,
                functionCall("call_t", "current_time", "{}"), functionCall("call_e", "echo_tool", "{\"text\":\"hi\"}"),
                functionCall("call_t2", "current_time", "{}")))));
        JsonObject output = run(pausingEngine(), request("x", List.of(), Cancellation.manual()));

        assertEquals(1, server.seen.size(), "the model is not called again");
        assertEquals("", output.getString("text"));
        assertEquals(List.of("call_e", "call_t2"), output.getJsonObject("awaiting_approval").getJsonArray("calls")
                .getValuesAs(JsonObject.class).stream().map(c -> c.getString("call_id")).toList(),
                "the waiting call first, then the rest of the message's calls");
        assertEquals(List.of("function_call:call_t", "function_call_output:call_t", "function_call:call_e",
                "function_call:call_t2"), output.getJsonArray("items").getValuesAs(JsonObject.class).stream()
                .map(i -> i.getString("type") + ":" + i.getString("call_id")).toList(),
                "the calls before it ran; it and the rest are shown, not run");
    }

    @Test
    void anApprovedResumptionRunsTheWaitingCallThenTheRestThenCallsTheModel() throws Exception {
        JsonObject waiting = functionCall("call_e", "echo_tool", "{\"text\":\"hi\"}");
        JsonObject after = functionCall("call_t", "current_time", "{}");
        List<JsonObject> history = List.of(userItem("x"), functionCall("call_old", "echo_tool", "{}"), waiting, after);
        server.stream(streamed("resp_3", "done"));
        JsonObject output = run(pausingEngine(), resumption(history,
                new ToolResumption("r1", List.of(waiting, after), true, false, null)));

        assertEquals("done", output.getString("text"));
        assertEquals(List.of("function_call_output:call_e", "function_call_output:call_t"),
                output.getJsonArray("items").getValuesAs(JsonObject.class).stream()
                        .map(i -> i.getString("type") + ":" + i.getString("call_id")).toList());
        assertEquals("hi", output.getJsonArray("items").getJsonObject(0).getString("output"), "run as approved");
        JsonArray sent = server.seen.get(0).body().getJsonArray("input");
        assertEquals(List.of("message", "function_call:call_e", "function_call:call_t", "function_call_output:call_e",
                "function_call_output:call_t"), sent.getValuesAs(JsonObject.class).stream()
                .map(i -> i.getString("type") + (i.containsKey("call_id") ? ":" + i.getString("call_id") : "")).toList(),
                "no new user message; a call nobody answered (call_old) is not sent");
    }

    @Test
    void aRejectedResumptionAnswersEveryCallWithTheRejectionAndCallsNoModel() throws Exception {
        JsonObject waiting = functionCall("call_e", "echo_tool", "{\"text\":\"hi\"}");
        JsonObject output = run(pausingEngine(), resumption(List.of(userItem("x"), waiting),
                new ToolResumption("r1", List.of(waiting), false, false, "Tool 'echo_tool' was rejected.")));
        assertEquals("Tool 'echo_tool' was rejected.", output.getString("text"));
        assertEquals("error: not approved: rejected by the user",
                output.getJsonArray("items").getJsonObject(0).getString("output"));
        assertEquals(0, server.seen.size());
    }

    @Test
    void aResumptionThatMeetsAnotherWaitingCallPausesAgainWithWhatIsLeft() throws Exception {
        JsonObject first = functionCall("call_1", "echo_tool", "{\"text\":\"a\"}");
        JsonObject second = functionCall("call_2", "echo_tool", "{\"text\":\"b\"}");
        JsonObject output = run(pausingEngine(), resumption(List.of(userItem("x"), first, second),
                new ToolResumption("r1", List.of(first, second), true, false, null)));
        assertEquals(List.of("call_2"), output.getJsonObject("awaiting_approval").getJsonArray("calls")
                .getValuesAs(JsonObject.class).stream().map(c -> c.getString("call_id")).toList());
        assertEquals(1, output.getJsonArray("items").size(), "the approved call's output only");
        assertEquals(0, server.seen.size());
    }

    /** A tool that answers with the arguments it was given, so a test sees what reached it. */
    private static final class SeeingTool implements dev.switchboard.core.engine.tool.FunctionTool {
        final List<String> got = new CopyOnWriteArrayList<>();

        @Override
        public String name() {
            return "seeing";
        }

        @Override
        public String description() {
            return "records its arguments";
        }

        @Override
        public JsonObject parameters() {
            return jakarta.json.Json.createObjectBuilder().add("type", "object").build();
        }

        @Override
        public java.util.concurrent.CompletionStage<String> call(JsonObject arguments) {
            got.add(arguments.toString());
            return java.util.concurrent.CompletableFuture.completedFuture("seen");
        }
    }

    /**
     * Approvals that redact {@code "api_key"} values when shown, keep a paused call's real
     * arguments reversed under {@code sealed_arguments} (a stand-in for sealing), and pause
     * {@code seeing} calls while {@code pause} is set.
     */
    private static ToolApprovals redacting(boolean pause) {
        return new ToolApprovals() {
            @Override
            public java.util.concurrent.CompletionStage<Verdict> decide(EngineRequest request, JsonObject call) {
                return java.util.concurrent.CompletableFuture.completedFuture(pause ? Verdict.AWAIT_PERSON : Verdict.ALLOWED);
            }

            @Override
            public JsonObject shown(EngineRequest request, JsonObject call) {
                return jakarta.json.Json.createObjectBuilder(call).add("arguments",
                        call.getString("arguments").replaceAll("\"api_key\":\"[^\"]*\"", "\"api_key\":\"[REDACTED]\"")).build();
            }

            @Override
            public JsonObject kept(EngineRequest request, JsonObject call) {
                return jakarta.json.Json.createObjectBuilder(shown(request, call)).add("sealed_arguments",
                        new StringBuilder(call.getString("arguments")).reverse().toString()).build();
            }

            @Override
            public JsonObject restored(EngineRequest request, JsonObject call) {
                return !call.containsKey("sealed_arguments") ? call : jakarta.json.Json.createObjectBuilder(call)
                        .remove("sealed_arguments").add("arguments",
                                new StringBuilder(call.getString("sealed_arguments")).reverse().toString()).build();
            }
        };
    }

    private ModelServerEngine seeingEngine(SeeingTool tool, boolean pause) {
        return new ModelServerEngine(new ModelServerEngine.Settings(server.base(), Optional.empty(), "m", Optional.empty(),
                Duration.ofSeconds(5), Optional.empty(), 0, new ResponsesWire(), new ToolBox(List.of(tool)), 8,
                redacting(pause)), HttpClient.newHttpClient(), timer);
    }

    @Test
    void aCallsSecretArgumentsReachItsToolAndNothingElse() throws Exception {
        String secret = "sk-live-only-for-the-tool";
        server.stream(List.of(event("response.completed", 1, "response", response("resp_1", 1,
                functionCall("call_s", "seeing", "{\"q\":\"x\",\"api_key\":\"" + secret + "\"}")))));
        server.stream(streamed("resp_2", "done"));
        List<JsonObject> streamed = new CopyOnWriteArrayList<>();
        RunStream catching = new RunStream() {
            @Override
            public void textDelta(String text) {
            }

            @Override
            public void item(JsonObject item) {
                streamed.add(item);
            }
        };
        SeeingTool tool = new SeeingTool();
        JsonObject output = run(seeingEngine(tool, false), new EngineRequest("run-1", "u", "t", "go", "followUp", 1,
                Cancellation.manual(), List::of, catching));

        assertEquals("done", output.getString("text"));
        assertEquals(List.of("{\"q\":\"x\",\"api_key\":\"" + secret + "\"}"), tool.got, "the tool got the value");
        assertFalse(output.toString().contains(secret), "the run's output: " + output);
        assertFalse(streamed.toString().contains(secret), "the stream: " + streamed);
        assertTrue(output.toString().contains("[REDACTED]"), output.toString());
        assertFalse(server.seen.get(1).body().toString().contains(secret), "the model's next request");
    }

    @Test
    void aPausedCallKeepsItsSecretSealedAndItsToolGetsItWhenApproved() throws Exception {
        String secret = "hunter2-for-the-tool";
        server.stream(List.of(event("response.completed", 1, "response", response("resp_1", 1,
                functionCall("call_p", "seeing", "{\"password\":\"x\",\"api_key\":\"" + secret + "\"}")))));
        SeeingTool tool = new SeeingTool();
        JsonObject paused = run(seeingEngine(tool, true), request("go", List.of(), Cancellation.manual()));
        assertFalse(paused.toString().contains(secret), "the paused run's output: " + paused);
        JsonObject kept = paused.getJsonObject("awaiting_approval").getJsonArray("calls").getJsonObject(0);
        assertTrue(kept.containsKey("sealed_arguments"), kept.toString());
        assertEquals(List.of(), tool.got, "nothing ran");

        server.stream(streamed("resp_2", "done"));
        JsonObject resumed = run(seeingEngine(tool, false), resumption(List.of(userItem("go"), kept),
                new ToolResumption("r1", List.of(kept), true, false, null)));
        assertEquals("done", resumed.getString("text"));
        assertEquals(List.of("{\"password\":\"x\",\"api_key\":\"" + secret + "\"}"), tool.got,
                "the approved call ran with its real arguments");
        assertFalse(resumed.toString().contains(secret), resumed.toString());
        assertFalse(server.seen.toString().contains(secret), "no model request");
    }

    /** A tool that answers with the credential it was given, so a test sees what reached it. */
    private static final class KeyedTool implements dev.switchboard.core.engine.tool.FunctionTool {
        @Override
        public String name() {
            return "keyed";
        }

        @Override
        public String description() {
            return "answers with the credential it was given";
        }

        @Override
        public JsonObject parameters() {
            return jakarta.json.Json.createObjectBuilder().add("type", "object").build();
        }

        @Override
        public java.util.concurrent.CompletionStage<String> call(JsonObject arguments) {
            return call(arguments, null);
        }

        @Override
        public java.util.concurrent.CompletionStage<String> call(JsonObject arguments, String credential) {
            return java.util.concurrent.CompletableFuture.completedFuture("key=" + credential);
        }
    }

    /** An engine whose {@code keyed} tool needs the credential {@code github}, which {@code secret} holds (empty: not given). */
    private ModelServerEngine credentialEngine(java.util.concurrent.atomic.AtomicReference<String> secret) {
        ToolApprovals approvals = new ToolApprovals() {
            @Override
            public java.util.concurrent.CompletionStage<ToolApprovals.Verdict> decide(EngineRequest request, JsonObject call) {
                return java.util.concurrent.CompletableFuture.completedFuture(credentialOf(request, call));
            }

            @Override
            public ToolApprovals.Verdict credentialOf(EngineRequest request, JsonObject call) {
                if (!"keyed".equals(call.getString("name"))) {
                    return ToolApprovals.Verdict.ALLOWED;
                }
                return secret.get() == null ? ToolApprovals.Verdict.awaitCredential("github")
                        : ToolApprovals.Verdict.allowedWith(secret.get());
            }
        };
        return new ModelServerEngine(new ModelServerEngine.Settings(server.base(), Optional.empty(), "m", Optional.empty(),
                Duration.ofSeconds(5), Optional.empty(), 0, new ResponsesWire(),
                new ToolBox(List.of(new KeyedTool(), new CurrentTimeTool(java.time.Clock.systemUTC()))), 8, approvals),
                HttpClient.newHttpClient(), timer);
    }

    @Test
    void aCallThatAwaitsACredentialEndsTheRunNamingItAndTheCallsLeft() throws Exception {
        server.stream(List.of(event("response.completed", 1, "response", response("resp_1", 1,
                functionCall("call_k", "keyed", "{}"), functionCall("call_t", "current_time", "{}")))));
        JsonObject output = run(credentialEngine(new java.util.concurrent.atomic.AtomicReference<>()),
                request("x", List.of(), Cancellation.manual()));
        JsonObject waiting = output.getJsonObject("awaiting_token");
        assertEquals("github", waiting.getString("credential"));
        assertEquals(List.of("call_k", "call_t"), waiting.getJsonArray("calls").getValuesAs(JsonObject.class).stream()
                .map(c -> c.getString("call_id")).toList());
        assertFalse(output.containsKey("awaiting_approval"));
        assertEquals(1, server.seen.size());
    }

    @Test
    void aResumptionAfterTheCredentialRunsTheCallsWithItThenCallsTheModel() throws Exception {
        JsonObject keyed = functionCall("call_k", "keyed", "{}");
        server.stream(streamed("resp_2", "done"));
        JsonObject output = run(credentialEngine(new java.util.concurrent.atomic.AtomicReference<>("s3cret")),
                resumption(List.of(userItem("x"), keyed), ToolResumption.afterCredential("r1", List.of(keyed))));
        assertEquals("done", output.getString("text"));
        assertEquals("key=s3cret", output.getJsonArray("items").getJsonObject(0).getString("output"),
                "the tool ran with the user's credential");
        assertEquals(1, server.seen.size());
        assertFalse(ToolApprovals.Verdict.allowedWith("s3cret").toString().contains("s3cret"), "never in a log line");
    }

    @Test
    void anApprovedCallWhoseCredentialIsMissingWaitsForIt() throws Exception {
        JsonObject keyed = functionCall("call_k", "keyed", "{}");
        JsonObject output = run(credentialEngine(new java.util.concurrent.atomic.AtomicReference<>()),
                resumption(List.of(userItem("x"), keyed), new ToolResumption("r1", List.of(keyed), true, false, null)));
        assertEquals("github", output.getJsonObject("awaiting_token").getString("credential"));
        assertEquals(0, server.seen.size());
    }

    @Test
    void cancellingTheRunWhileAToolWorksEndsItAtOnce() throws Exception {
        server.stream(List.of(event("response.completed", 1, "response", response("resp_1", 1,
                functionCall("call_1", "forever", "{}")))));
        java.util.concurrent.CompletableFuture<String> never = new java.util.concurrent.CompletableFuture<>();
        CountDownLatch called = new CountDownLatch(1);
        dev.switchboard.core.engine.tool.FunctionTool forever = new dev.switchboard.core.engine.tool.FunctionTool() {
            public String name() {
                return "forever";
            }

            public String description() {
                return "never answers";
            }

            public JsonObject parameters() {
                return Json.createObjectBuilder().add("type", "object").build();
            }

            public java.util.concurrent.CompletionStage<String> call(JsonObject arguments) {
                called.countDown();
                return never;
            }
        };
        Cancellation cancellation = Cancellation.manual();
        var result = engine(0, new ResponsesWire(), new ToolBox(List.of(forever)), 8)
                .execute(request("x", List.of(), cancellation)).toCompletableFuture();
        assertTrue(called.await(10, TimeUnit.SECONDS));
        cancellation.cancel();
        ExecutionException e = assertThrows(ExecutionException.class, () -> result.get(5, TimeUnit.SECONDS));
        assertEquals("cancelled", e.getCause().getMessage());
        assertFalse(never.isDone(), "the tool never answered: the run did not wait for it");
    }

    @Test
    void aRefusedApprovalBecomesTheCallsOutput() throws Exception {
        server.stream(List.of(event("response.completed", 1, "response",
                response("resp_1", 1, functionCall("call_1", "echo_tool", "{\"text\":\"x\"}")))));
        server.stream(streamed("resp_2", "ok"));
        ModelServerEngine engine = new ModelServerEngine(new ModelServerEngine.Settings(server.base(), Optional.empty(),
                "m", Optional.empty(), Duration.ofSeconds(5), Optional.empty(), 0, new ResponsesWire(),
                new ToolBox(List.of(new EchoTool())), 8,
                (request, call) -> java.util.concurrent.CompletableFuture.completedFuture(
                        ToolApprovals.Verdict.refused("the user said no to " + call.getString("name")))),
                HttpClient.newHttpClient(), timer);
        JsonObject output = run(engine, request("x", List.of(), Cancellation.manual()));
        assertEquals("error: not approved: the user said no to echo_tool",
                output.getJsonArray("items").getJsonObject(1).getString("output"));
        assertEquals(null, server.seen.get(0).authorization(), "no key configured, no Authorization header");
    }

    @Test
    void chatCompletionsStreamTextAndToolCallsInPiecesThroughTheSameLoop() throws Exception {
        server.stream(List.of(
                data("{\"id\":\"chatcmpl-1\",\"model\":\"llama\",\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\","
                        + "\"tool_calls\":[{\"index\":0,\"id\":\"call_9\",\"type\":\"function\",\"function\":{\"name\":\"echo_tool\","
                        + "\"arguments\":\"{\\\"te\"}}]}}]}"),
                data("{\"id\":\"chatcmpl-1\",\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,"
                        + "\"function\":{\"arguments\":\"xt\\\":\\\"hi\\\"}\"}}]},\"finish_reason\":\"tool_calls\"}]}"),
                data("{\"id\":\"chatcmpl-1\",\"choices\":[],\"usage\":{\"prompt_tokens\":30,\"completion_tokens\":7}}"),
                data("[DONE]")));
        server.stream(List.of(
                data("{\"id\":\"chatcmpl-2\",\"model\":\"llama\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"it said \"}}]}"),
                data("{\"id\":\"chatcmpl-2\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"hi\"},\"finish_reason\":\"stop\"}]}"),
                data("{\"id\":\"chatcmpl-2\",\"choices\":[],\"usage\":{\"prompt_tokens\":40,\"completion_tokens\":3}}"),
                data("[DONE]")));
        JsonObject assistantBefore = message("earlier answer");
        JsonObject output = run(engine(0, new ChatCompletionsWire(), new ToolBox(List.of(new EchoTool())), 8),
                request("use the tool", List.of(userItem("earlier question"), assistantBefore), Cancellation.manual()));

        assertEquals("it said hi", output.getString("text"));
        assertEquals("chatcmpl-2", output.getString("response_id"));
        assertEquals("llama", output.getString("model"));
        assertEquals(70, output.getJsonObject("usage").getInt("input_tokens"));
        assertEquals(10, output.getJsonObject("usage").getInt("output_tokens"));
        assertEquals("{\"text\":\"hi\"}", output.getJsonArray("items").getJsonObject(0).getString("arguments"));
        assertEquals(List.of("function_call:echo_tool", "function_call_output:hi", "delta:it said ", "delta:hi"), shown);

        ScriptedModelServer.Seen first = server.seen.get(0);
        assertEquals("/v1/chat/completions", first.path());
        assertTrue(first.body().getBoolean("stream"));
        assertTrue(first.body().getJsonObject("stream_options").getBoolean("include_usage"));
        assertEquals(64, first.body().getInt("max_tokens"));
        assertEquals("echo_tool", first.body().getJsonArray("tools").getJsonObject(0).getJsonObject("function")
                .getString("name"));
        List<String> roles = server.seen.get(1).body().getJsonArray("messages").getValuesAs(JsonObject.class).stream()
                .map(m -> m.getString("role")).toList();
        assertEquals(List.of("system", "user", "assistant", "user", "assistant", "tool"), roles);
        JsonArray messages = server.seen.get(1).body().getJsonArray("messages");
        assertEquals("Be brief.", messages.getJsonObject(0).getString("content"));
        assertEquals("earlier answer", messages.getJsonObject(2).getString("content"));
        JsonObject call = messages.getJsonObject(4).getJsonArray("tool_calls").getJsonObject(0);
        assertEquals("call_9", call.getString("id"));
        assertEquals("echo_tool", call.getJsonObject("function").getString("name"));
        assertEquals("call_9", messages.getJsonObject(5).getString("tool_call_id"));
        assertEquals("hi", messages.getJsonObject(5).getString("content"));
    }

    @Test
    void aChatCompletionsErrorChunkFailsTheRun() {
        server.stream(List.of(data("{\"error\":{\"message\":\"context window exceeded\"}}")));
        assertEquals("the model server reported an error: context window exceeded",
                failure(engine(0, new ChatCompletionsWire(), ToolBox.EMPTY, 8), request("x", List.of(),
                        Cancellation.manual())));
    }

    private static void awaitTrue(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within 10 s: " + what);
            }
            Thread.sleep(5);
        }
    }
}
