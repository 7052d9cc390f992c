package dev.switchboard.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.switchboard.testkit.Await;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.ResourceAccessMode;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * The {@code switchboard} client as a process against a running server: jagc's smoke flow, live
 * progress of {@code message --wait}, cancel, threads, {@code tail} resuming after its connection
 * is cut, the runtime's pause and resume, ingress and its records — and every error printing the
 * server's own message with exit status 1.
 */
@ResourceLock(value = SharedInstance.LOCK, mode = ResourceAccessMode.READ_WRITE)
class CliIT {

    private static final Duration DEADLINE = Duration.ofSeconds(60);
    private static Api api;
    private static String url;

    @BeforeAll
    static void start() {
        api = SharedInstance.api();
        url = api.base;
    }

    private static String key(String name) {
        return "cli-" + name + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    private static Cli.Result ok(String... args) {
        Cli.Result result = Cli.run(url, args);
        assertEquals(0, result.exit(), result.toString());
        assertEquals("", result.err(), result.toString());
        return result;
    }

    @Test
    void jagcsSmokeFlowPassesThroughTheClient() {
        assertEquals("{\"ok\":true}\n", ok("health", "--json").out());
        assertEquals("ok\n", ok("health").out());
        assertTrue(ok("auth", "providers", "--json").out().startsWith("{\"providers\":["), "what the server answered");

        String thread = key("smoke");
        String runId = ok("message", "ping", "--thread-key", thread).out().strip();
        assertEquals(runId + " succeeded\n", ok("run", "wait", runId).out());
        JsonObject run = (JsonObject) Json.createReader(new java.io.StringReader(ok("run", "wait", runId, "--json").out())).read();
        assertEquals("ping", run.getJsonObject("output").getString("text"));

        String idempotencyKey = "k-" + UUID.randomUUID();
        String first = ok("message", "once", "--thread-key", thread, "--idempotency-key", idempotencyKey).out().strip();
        String again = ok("message", "once", "--thread-key", thread, "--idempotency-key", idempotencyKey).out().strip();
        assertEquals(first, again, "the same key names the same run");
        assertEquals(first + " succeeded\n", ok("run", "wait", first).out());

        Cli.Result missing = Cli.run(url, "run", "wait", "does-not-exist");
        assertEquals(1, missing.exit(), missing.toString());
        assertEquals("run does-not-exist not found\n", missing.err());
        assertEquals("", missing.out());
    }

    @Test
    void jagcsModelAndThinkingCommandsChooseAThreadsRuntime() {
        assertEquals("echo auth:null models:1/1\n  * echo/echo\nscripted auth:null models:1/1\n  * scripted/scripted\n",
                ok("model", "list").out(), "the instance's engine (scripted) and echo");
        String thread = key("model");
        assertEquals("thread:" + thread + " model:scripted/scripted\n", ok("model", "get", "--thread-key", thread).out());
        assertEquals("thread:" + thread + " model:echo/echo\n", ok("model", "set", "echo/echo", "--thread-key", thread).out());
        assertEquals("thread:" + thread + " thinking:off\n", ok("thinking", "set", "high", "--thread-key", thread).out(),
                "echo cannot think: its level stays off");
        assertTrue(ok("thinking", "get", "--thread-key", thread, "--json").out()
                .contains("\"available_thinking_levels\":[\"off\"]"));
        String runId = ok("message", "sleep 5; via echo", "--thread-key", thread).out().strip();
        JsonObject run = (JsonObject) Json.createReader(new java.io.StringReader(ok("run", "wait", runId, "--json").out())).read();
        assertEquals("sleep 5; via echo", run.getJsonObject("output").getString("text"),
                "the thread's runs go to echo, which answers the script as text instead of running it");

        Cli.Result malformed = Cli.run(url, "model", "set", "echo", "--thread-key", thread);
        assertEquals(1, malformed.exit(), malformed.toString());
        assertEquals("model must be in provider/model format\n", malformed.err());
        Cli.Result unknown = Cli.run(url, "model", "set", "echo/gpt-9", "--thread-key", thread);
        assertEquals(1, unknown.exit(), unknown.toString());
        assertEquals("model echo/gpt-9 is not available in registry\n", unknown.err());
        Cli.Result level = Cli.run(url, "thinking", "set", "maximal", "--thread-key", thread);
        assertEquals(1, level.exit(), level.toString());
        assertEquals("thinking level must be one of: off, minimal, low, medium, high, xhigh\n", level.err());
    }

    /** jagc 0.7's {@code cancel}, {@code new} and {@code share}, with jagc's lines, through this client. */
    @Test
    void jagcsCancelNewAndShareCommands() throws Exception {
        String thread = key("session");
        assertEquals("thread:" + thread + " no active run to stop (session preserved)\n",
                ok("cancel", "--thread-key", thread).out());
        String runId = ok("message", "sleep 20000; stopped", "--thread-key", thread).out().strip();
        Await.until(java.time.Duration.ofSeconds(30), () -> api.isExecuting(runId, 1), "the run executes");
        assertEquals("thread:" + thread + " run stopped (session preserved)\n", ok("cancel", "--thread-key", thread).out());
        assertTrue(ok("cancel", "--thread-key", thread, "--json").out().contains("\"cancelled\":false"));

        ok("message", "remember me", "--thread-key", thread, "--wait");
        assertEquals("thread:" + thread + " session reset\n", ok("new", "--thread-key", thread).out());
        String fresh = ok("message", "history", "--thread-key", thread).out().strip();
        JsonObject run = (JsonObject) Json.createReader(new java.io.StringReader(ok("run", "wait", fresh, "--json").out())).read();
        assertEquals("history(0): ", run.getJsonObject("output").getString("text"), "the next run starts fresh");

        List<String> shared = ok("share", "--thread-key", thread).lines();
        assertEquals("thread:" + thread, shared.get(0));
        assertTrue(shared.get(1).matches("share:http://\\S+/shared/[A-Za-z0-9_-]{43}"), shared.toString());
        assertEquals("gist:" + shared.get(1).substring("share:".length()), shared.get(2));
        assertEquals("thread:" + thread + " revoked:1\n", ok("share", "--thread-key", thread, "--revoke").out());
    }

    @Test
    void aRefusedRequestPrintsTheServersOwnMessage() {
        Cli.Result blank = Cli.run(url, "message", "", "--thread-key", key("blank"));
        String serverSays = api.postJson("/v1/messages", "{\"text\":\"\",\"thread_key\":\"x\"}").json()
                .getJsonObject("error").getString("message");
        assertEquals(1, blank.exit(), blank.toString());
        assertEquals(serverSays + "\n", blank.err());

        Cli.Result unknownThread = Cli.run(url, "threads", "read", key("never"));
        assertEquals(1, unknownThread.exit(), unknownThread.toString());
        assertEquals("thread not found\n", unknownThread.err());
    }

    @Test
    void messageWaitShowsTheTurnLiveAndEndsWithTheRunLine() {
        String thread = key("wait");
        List<String> lines = ok("message", "sleep 200; done", "--thread-key", thread, "--wait").lines();
        assertEquals(7, lines.size(), String.join("\n", lines));
        assertTrue(lines.get(0).matches("started turn_\\S+ on " + thread), lines.get(0));
        assertEquals(List.of("user: sleep 200; done", "queued", "running", "assistant: done", "completed"), lines.subList(1, 6));
        String runId = lines.get(6).split(" ")[0];
        assertEquals(runId + " succeeded", lines.get(6));
        assertEquals("succeeded", api.get("/v1/runs/" + runId).json().getString("status"));

        List<String> failed = ok("message", "fail agent exploded", "--thread-key", thread, "--wait").lines();
        assertTrue(failed.get(failed.size() - 1).endsWith(" failed agent exploded"), String.join("\n", failed));
        assertTrue(failed.contains("interrupted (failed): agent exploded"), String.join("\n", failed));
    }

    @Test
    void runCancelStopsAnExecutingRun() throws InterruptedException {
        String thread = key("cancel");
        String runId = api.message(thread, "sleep 60000; too late").getString("run_id");
        Await.until(DEADLINE, () -> api.isExecuting(runId, 1), "run " + runId + " executing");
        long started = System.nanoTime();
        Cli.Result cancelled = ok("run", "cancel", runId, "--reason", "operator says stop");
        assertTrue(cancelled.out().startsWith(runId + " failed "), cancelled.toString());
        assertTrue(System.nanoTime() - started < TimeUnit.SECONDS.toNanos(30), "cancel did not wait for the engine's 60 s");
        JsonObject run = api.get("/v1/runs/" + runId).json();
        assertEquals("interrupted", run.getJsonObject("error").getString("code"), run.toString());
        assertEquals(runId + " failed " + run.getJsonObject("error").getString("message") + "\n", cancelled.out());
    }

    @Test
    void threadsListAndReadShowTheThreadAndItsMessages() {
        String prefix = key("threads");
        String thread = prefix + "-t";
        String runId = api.message(thread, "hello threads").getString("run_id");
        api.awaitRun(runId, 30);
        Cli.Result page = Cli.run(url, "threads", "list", "--after", prefix, "--limit", "1");
        assertEquals(0, page.exit(), page.toString());
        List<String> listed = page.lines();
        assertEquals(1, listed.size(), listed.toString());
        // Other tests' threads may sort after it: then the next page is named on stderr, nothing else.
        assertTrue(page.err().isEmpty() || page.err().matches("more: --after \\S+\n"), page.err());
        assertTrue(listed.get(0).startsWith(thread + "  0 active  "), listed.get(0));
        assertTrue(listed.get(0).endsWith("  person"), listed.get(0));
        // A search by part of the key, in any case; an Open Responses chain is listed only with --all.
        List<String> found = Cli.run(url, "threads", "list", "--query", thread.substring(4).toUpperCase(java.util.Locale.ROOT)).lines();
        assertEquals(1, found.size(), found.toString());
        assertTrue(found.get(0).startsWith(thread + "  0 active  "), found.get(0));
        Api.Reply response = api.postJson("/v1/responses", "{\"model\":\"echo\",\"input\":\"an internal thread\"}");
        assertEquals(200, response.status(), response.body());
        String responseId = response.json().getString("id");
        assertEquals(List.of(), Cli.run(url, "threads", "list", "--query", responseId).lines(), "left out without --all");
        List<String> internal = Cli.run(url, "threads", "list", "--all", "--query", responseId).lines();
        assertEquals(1, internal.size(), internal.toString());
        assertTrue(internal.get(0).startsWith("responses/" + responseId + "  0 active  ")
                && internal.get(0).endsWith("  internal"), internal.get(0));
        List<String> read = ok("threads", "read", thread).lines();
        assertTrue(read.get(0).matches("#1 " + runId + " succeeded  \\(turn_\\S+\\)"), read.get(0));
        assertEquals(List.of("   user: hello threads", "   assistant: hello threads"), read.subList(1, 3));
        List<String> history = ok("threads", "history", thread).lines();
        assertEquals(2, history.size(), history.toString());
        assertTrue(history.get(0).matches("#\\d+ user: hello threads"), history.get(0));
        assertTrue(history.get(1).matches("#\\d+ assistant: hello threads"), history.get(1));
        Cli.Result firstOnly = Cli.run(url, "threads", "history", thread, "--limit", "1");
        assertEquals(List.of(history.get(0)), firstOnly.lines());
        String after = history.get(0).substring(1, history.get(0).indexOf(' '));
        assertEquals("more: --after-seq " + after + "\n", firstOnly.err());
        assertEquals(List.of(history.get(1)), ok("threads", "history", thread, "--after-seq", after).lines());
    }

    @Test
    void tailResumesAfterItsConnectionIsCutWithoutGapOrDuplicate() throws Exception {
        String thread = key("tail");
        try (CuttableProxy proxy = new CuttableProxy(new java.net.URI(url).getPort())) {
            // Replayed from seq 0: the thread's notifications whenever tail connects (and the user's
            // notifications about no thread, which every subscription gets; they are filtered out below).
            Process tail = Cli.command("http://127.0.0.1:" + proxy.port(), Map.of(), "tail", "--thread", thread, "--json",
                    "--after-seq", "0", "--for", "120").start();
            List<JsonObject> lines = Collections.synchronizedList(new ArrayList<>());
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            Cli.drain(tail.getErrorStream(), err);
            Thread reader = new Thread(() -> {
                try (BufferedReader in = new BufferedReader(new InputStreamReader(tail.getInputStream(), StandardCharsets.UTF_8))) {
                    for (String line = in.readLine(); line != null; line = in.readLine()) {
                        lines.add((JsonObject) Json.createReader(new java.io.StringReader(line)).read());
                    }
                } catch (IOException ended) {
                    // the process ended
                }
            });
            reader.start();
            long lastBeforeCut;
            try {
                api.awaitRun(api.message(thread, "before the cut").getString("run_id"), 30);
                Await.until(DEADLINE, () -> ofThread(lines, thread).size() >= 6 || !tail.isAlive(), "tail showing the first turn");
                assertEquals(6, ofThread(lines, thread).size(), lines + "\n" + err);
                synchronized (lines) {
                    lastBeforeCut = seqOf(lines.get(lines.size() - 1));
                    proxy.cutAll();
                }
                api.awaitRun(api.message(thread, "after the cut").getString("run_id"), 30);
                Await.until(DEADLINE, () -> ofThread(lines, thread).size() >= 12 || !tail.isAlive(), "tail showing the second turn");
                assertTrue(tail.isAlive(), "tail runs until --for ends it: " + err.toString(StandardCharsets.UTF_8));
            } finally {
                tail.destroy();
                tail.waitFor(10, TimeUnit.SECONDS);
                reader.join(5_000);
            }
            List<JsonObject> mine = ofThread(lines, thread);
            assertEquals(12, mine.size(), mine.toString());
            long previous = 0;
            for (JsonObject notification : lines) {
                assertTrue(seqOf(notification) > previous, "seqs increase, no duplicate: " + lines);
                previous = seqOf(notification);
            }
            assertTrue(mine.get(7).toString().contains("after the cut"), mine.get(7).toString());
            assertTrue(err.toString(StandardCharsets.UTF_8).contains("connection lost; resuming after seq " + lastBeforeCut),
                    err.toString(StandardCharsets.UTF_8));
        }
    }

    private static List<JsonObject> ofThread(List<JsonObject> notifications, String thread) {
        synchronized (notifications) {
            return notifications.stream().filter(n -> thread.equals(n.getJsonObject("params").getString("thread_id", ""))).toList();
        }
    }

    private static long seqOf(JsonObject notification) {
        return notification.getJsonObject("params").getJsonNumber("seq").longValue();
    }

    @Test
    void pauseStatusAndResumeDriveTheRuntime() {
        try {
            ok("resume"); // whatever an earlier test left: "Runtime already running" when it runs
            assertTrue(ok("status").out().startsWith("state      running\n"), "running at first");
            assertEquals("Paused event processing\n", ok("pause").out());
            assertTrue(ok("status").out().startsWith("state      paused since "), "paused");
            Cli.Result twice = Cli.run(url, "pause");
            assertEquals(1, twice.exit(), twice.toString());
            assertEquals("failed to pause: already paused\n", twice.err());
            assertEquals("Resumed event processing\n", ok("resume").out());
            assertEquals("running", ((JsonObject) Json.createReader(new java.io.StringReader(ok("status", "--json").out())).read())
                    .getString("state"));
        } finally {
            api.postJson("/rpc", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"server/resume\"}");
        }
    }

    @Test
    void anEventSentThroughTheClientIsRunAndListedWithItsRecords() {
        String repo = "acme/" + key("ingress");
        List<String> sent = ok("ingress", "event", "--source", "ci", "--type", "ci.build.failed", "--repo", repo,
                "--instruction", "find out why").lines();
        String[] accepted = sent.get(0).split(" ");
        assertEquals("accepted", accepted[0], sent.toString());
        assertEquals("event:" + repo, accepted[2]);
        api.awaitRun(accepted[3], 30);

        List<String> events = ok("events", "--session-key", "event:" + repo).lines();
        assertEquals(1, events.size(), events.toString());
        assertTrue(events.get(0).contains("  " + accepted[1] + "  ci  ci.build.failed  accepted  event:" + repo + "  " + accepted[3]),
                events.get(0));
        List<String> actions = ok("events", "--actions", "--session-key", "event:" + repo).lines();
        assertEquals(2, actions.size(), actions.toString());
        assertTrue(actions.get(0).endsWith("  " + accepted[1] + "  accepted"), actions.get(0));
        assertTrue(actions.get(1).endsWith("  " + accepted[1] + "  completed  find out why"), actions.get(1));
    }
}
