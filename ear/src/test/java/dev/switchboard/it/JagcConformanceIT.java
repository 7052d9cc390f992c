package dev.switchboard.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.switchboard.testkit.Await;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.ResourceAccessMode;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.junit.jupiter.params.BeforeParameterizedClassInvocation;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/** jagc's runs API contract checklist (§10.1 of its design; docs/api.md) over real HTTP, on PostgreSQL. */
@ParameterizedClass(name = "on {0}") // on PostgreSQL and on the embedded H2 (SharedInstance)
@EnumSource(SharedInstance.Database.class)
@ResourceLock(value = SharedInstance.LOCK, mode = ResourceAccessMode.READ)
class JagcConformanceIT {

    @Parameter
    SharedInstance.Database database;

    private static Api api;

    @BeforeParameterizedClassInvocation
    static void start(SharedInstance.Database database) {
        api = SharedInstance.api(database);
    }

    private static String unique(String prefix) {
        return prefix + "-" + UUID.randomUUID();
    }

    private static void assertError(Api.Reply reply, int status, String code) {
        assertEquals(status, reply.status(), reply.body());
        JsonObject error = reply.json().getJsonObject("error");
        assertEquals(code, error.getString("code"), reply.body());
        assertFalse(error.getString("message").isBlank());
    }

    @Test
    void healthz() {
        Api.Reply r = api.get("/healthz");
        assertEquals(200, r.status());
        assertEquals(JsonValue.TRUE, r.json().get("ok"));
    }

    @Test
    void microProfileHealth() {
        Api.Reply ready = api.get("/health/ready");
        assertEquals(200, ready.status(), ready.body());
        assertEquals("UP", ready.json().getString("status"));
        assertEquals(200, api.get("/health/live").status());
    }

    @Test
    void postCreatesARunWithJagcsDefaultsThatSucceedsWithTheEchoOutput() {
        Api.Reply r = api.postJson("/v1/messages", "{\"text\":\"ping\",\"extra\":{\"ignored\":true}}");
        assertEquals(202, r.status(), r.body());
        JsonObject run = r.json();
        String runId = run.getString("run_id");
        assertEquals(4, UUID.fromString(runId).version());
        assertEquals("running", run.getString("status"));
        assertEquals(JsonValue.NULL, run.get("output"));
        assertEquals(JsonValue.NULL, run.get("error"));
        assertEquals("cli", run.getString("source"));
        assertEquals("cli:default", run.getString("thread_key"));
        assertEquals("followUp", run.getString("delivery_mode"));

        JsonObject done = api.awaitRun(runId, 30);
        assertEquals("succeeded", done.getString("status"));
        assertEquals("succeeded", done.getString("state"));
        assertEquals("{\"type\":\"message\",\"text\":\"ping\",\"delivery_mode\":\"followUp\"}",
                done.getJsonObject("output").toString());
        assertEquals(JsonValue.NULL, done.get("error"));
        assertEquals(done, api.get("/v1/runs/" + runId).json());
    }

    @Test
    void fieldsAreTrimmedExceptText() {
        String thread = unique("trim");
        JsonObject run = api.postJson("/v1/messages", "{\"text\":\"  spaced  \",\"source\":\"  tg \",\"thread_key\":\"  "
                + thread + " \",\"user_key\":\" u1 \",\"delivery_mode\":\"steer\"}").json();
        assertEquals("tg", run.getString("source"));
        assertEquals(thread, run.getString("thread_key"));
        JsonObject done = api.awaitRun(run.getString("run_id"), 30);
        assertEquals("  spaced  ", done.getJsonObject("output").getString("text"));
        assertEquals("steer", done.getJsonObject("output").getString("delivery_mode"));
    }

    @Test
    void anEngineFailureFailsTheRunWithItsMessage() {
        String runId = api.message(unique("fail"), "fail agent exploded").getString("run_id");
        JsonObject done = api.awaitRun(runId, 30);
        assertEquals("failed", done.getString("status"));
        assertEquals(JsonValue.NULL, done.get("output"));
        assertEquals("agent exploded", done.getJsonObject("error").getString("message"));
    }

    @Test
    void invalidPayloads() {
        for (String body : new String[] {"{\"source\":\"cli\"}", "{\"text\":\"\"}", "{\"text\":7}",
                "{\"text\":\"x\",\"user_key\":null}", "{\"text\":\"x\",\"idempotency_key\":null}",
                "{\"text\":\"x\",\"delivery_mode\":\"later\"}", "[]", "\"hello\""}) {
            assertError(api.postJson("/v1/messages", body), 400, "invalid_message_payload");
        }
        assertError(api.send(api.request("/v1/messages").POST(HttpRequest.BodyPublishers.noBody())), 400,
                "invalid_message_payload");
        assertError(api.send(api.request("/v1/messages").header("Content-Type", "text/plain")
                .POST(HttpRequest.BodyPublishers.ofString("hello"))), 400, "invalid_message_payload");
    }

    @Test
    void idempotencyHeaderErrorsInJagcsOrder() {
        assertError(api.postJson("/v1/messages", "{\"text\":\"x\"}", "Idempotency-Key", "   "), 400,
                "invalid_idempotency_key_header");
        // body problems come first
        assertError(api.postJson("/v1/messages", "{}", "Idempotency-Key", "   "), 400, "invalid_message_payload");
        // a blank header comes before a mismatch
        assertError(api.postJson("/v1/messages", "{\"text\":\"x\",\"idempotency_key\":\"a\"}", "Idempotency-Key", " "),
                400, "invalid_idempotency_key_header");
        Api.Reply mismatch = api.postJson("/v1/messages", "{\"text\":\"x\",\"idempotency_key\":\"a\"}",
                "Idempotency-Key", "b");
        assertError(mismatch, 400, "idempotency_key_mismatch");
        assertEquals("idempotency key in request body does not match Idempotency-Key header",
                mismatch.json().getJsonObject("error").getString("message"));
        assertError(api.postJson("/v1/messages", "{\"text\":\"x\"}", "Idempotency-Key", "a", "Idempotency-Key", "b"),
                400, "invalid_idempotency_key_header");
    }

    @Test
    void idempotentIngest() {
        String key = unique("key");
        String thread = unique("idem");
        String body = "{\"text\":\"once\",\"thread_key\":\"" + thread + "\",\"idempotency_key\":\"" + key + "\"}";
        JsonObject first = api.postJson("/v1/messages", body).json();
        api.awaitRun(first.getString("run_id"), 30);

        Api.Reply again = api.postJson("/v1/messages", body);
        assertEquals(202, again.status());
        assertEquals(first.getString("run_id"), again.json().getString("run_id"));
        assertEquals("succeeded", again.json().getString("status"), "a duplicate returns the current state");

        Api.Reply viaHeader = api.postJson("/v1/messages", "{\"text\":\"once\",\"thread_key\":\"" + thread + "\"}",
                "Idempotency-Key", "  " + key + " ");
        assertEquals(first.getString("run_id"), viaHeader.json().getString("run_id"));

        Api.Reply otherSource = api.postJson("/v1/messages", "{\"text\":\"once\",\"source\":\"telegram\",\"thread_key\":\""
                + thread + "\",\"idempotency_key\":\"" + key + "\"}");
        assertNotEquals(first.getString("run_id"), otherSource.json().getString("run_id"));

        assertError(api.postJson("/v1/messages", "{\"text\":\"different\",\"thread_key\":\"" + thread
                + "\",\"idempotency_key\":\"" + key + "\"}"), 409, "idempotency_payload_mismatch");
        assertEquals(2, api.threadRuns(thread).size(), "duplicates are not queued again");
    }

    @Test
    void runLookups() {
        Api.Reply missing = api.get("/v1/runs/does-not-exist");
        assertError(missing, 404, "run_not_found");
        assertEquals("run does-not-exist not found", missing.json().getJsonObject("error").getString("message"));
        assertError(api.get("/v1/runs/%20%20"), 400, "invalid_run_id");
        assertError(api.get("/v1/runs/"), 400, "invalid_run_id");
        assertError(api.get("/v1/runs/does-not-exist/wait?timeout=1"), 404, "run_not_found");
        assertError(api.get("/v1/runs/x/wait?timeout=-1"), 400, "invalid_timeout");
        assertError(api.get("/v1/runs/x/wait?timeout=abc"), 400, "invalid_timeout");
    }

    @Test
    void waitReturnsTheCurrentStateWhenTheTimeoutPassesFirst() throws InterruptedException {
        String runId = api.message(unique("slow"), "sleep 5000; slow").getString("run_id");
        Await.until(Duration.ofSeconds(60), () -> "running".equals(api.get("/v1/runs/" + runId).json().getString("status")),
                "the run executes");
        long start = System.nanoTime();
        JsonObject early = api.get("/v1/runs/" + runId + "/wait?timeout=1").json();
        long tookMs = (System.nanoTime() - start) / 1_000_000;
        assertEquals("running", early.getString("status"), "answered when the timeout passed, before the run's end");
        assertTrue(tookMs >= 900, "waited " + tookMs + " ms");
        assertEquals("succeeded", api.awaitRun(runId, 60).getString("status"));
    }

    @Test
    void cancellingAThreadEndsItsQueuedAndExecutingRunsAndFreesTheLane() throws InterruptedException {
        String thread = unique("cancel");
        String executing = api.message(thread, "sleep 20000; never").getString("run_id");
        String queued = api.message(thread, "queued").getString("run_id");
        long deadline = System.currentTimeMillis() + 10_000;
        while (!"executing".equals(api.get("/v1/runs/" + executing).json().getString("state"))
                && System.currentTimeMillis() < deadline) {
            Thread.sleep(20);
        }
        Api.Reply cancel = api.postJson("/v1/threads/" + thread + "/cancel", "{}");
        assertEquals(200, cancel.status(), cancel.body());
        assertEquals(2, cancel.json().getJsonArray("cancelled_run_ids").size());
        assertEquals(true, cancel.json().getBoolean("cancelled"), "jagc 0.7's CLI reads cancelled");
        for (String runId : new String[] {executing, queued}) {
            JsonObject run = api.get("/v1/runs/" + runId).json();
            assertEquals("failed", run.getString("status"));
            assertEquals("cancelled", run.getJsonObject("error").getString("code"));
            assertEquals(JsonValue.NULL, run.get("output"));
        }
        String after = api.message(thread, "after the cancel").getString("run_id");
        assertEquals("succeeded", api.awaitRun(after, 10).getString("status"), "the lane is free again");
        assertEquals(0, api.postJson("/v1/threads/" + thread + "/cancel", "{}").json()
                .getJsonArray("cancelled_run_ids").size());
        Api.Reply none = api.postJson("/v1/threads/" + unique("none") + "/cancel", "{}");
        assertEquals(200, none.status(), "as jagc: a thread never made has no run to stop");
        assertEquals(false, none.json().getBoolean("cancelled"));
    }

    @Test
    void frameworkErrorsUseTheEnvelope() {
        assertError(api.postJson("/v1/messages", "{\"text\":"), 400, "invalid_json_body");
        assertError(api.postJson("/v1/messages", ""), 400, "empty_json_body");
        assertError(api.send(api.request("/v1/messages").header("Content-Type", "application/xml")
                .POST(HttpRequest.BodyPublishers.ofString("<text/>"))), 415, "unsupported_media_type");
        String big = "{\"text\":\"" + "x".repeat(1024 * 1024) + "\"}";
        assertError(api.postJson("/v1/messages", big), 413, "payload_too_large");
        assertError(api.get("/no/such/route"), 404, "route_not_found");
        assertError(api.get("/v1/messages"), 404, "route_not_found");
    }

    @Test
    void authProvidersIsAnArray() {
        Api.Reply r = api.get("/v1/auth/providers");
        assertEquals(200, r.status());
        assertEquals(JsonValue.ValueType.ARRAY, r.json().get("providers").getValueType());
    }

    /**
     * jagc's OAuth login broker (default-anton/jagc f450b71, src/server/app.ts): no provider of
     * this server logs in with OAuth, so a start is jagc's 400 {@code auth_login_provider_not_found},
     * and an attempt's routes make jagc's checks (the owner header, the input's body) and then
     * answer its 404 {@code auth_login_not_found} — each in jagc's envelope, never a route_not_found.
     */
    @Test
    void theLoginBrokerRoutesAnswerWithJagcsErrors() {
        String owner = "x-jagc-auth-owner";
        assertJagcError(send(api.request("/v1/auth/providers/openai-codex/login").POST(HttpRequest.BodyPublishers.noBody())),
                400, "auth_login_provider_not_found", "OAuth provider openai-codex is not available");
        assertJagcError(send(api.request("/v1/auth/providers/anthropic/login").header(owner, "me")
                .POST(HttpRequest.BodyPublishers.noBody())), 400, "auth_login_provider_not_found",
                "OAuth provider anthropic is not available");
        assertJagcError(send(api.request("/v1/auth/providers/anthropic/login").header(owner, " ")
                .POST(HttpRequest.BodyPublishers.noBody())), 400, "invalid_auth_owner_key", null);

        assertJagcError(api.get("/v1/auth/logins/a1"), 400, "invalid_auth_owner_key", "missing x-jagc-auth-owner header");
        assertJagcError(send(api.request("/v1/auth/logins/a1").header(owner, "me").GET()), 404, "auth_login_not_found",
                "OAuth login attempt not found");
        assertJagcError(send(api.request("/v1/auth/logins/a1/cancel").header(owner, "me")
                .POST(HttpRequest.BodyPublishers.noBody())), 404, "auth_login_not_found", "OAuth login attempt a1 was not found");
        assertJagcError(send(api.request("/v1/auth/logins/a1/cancel").POST(HttpRequest.BodyPublishers.noBody())), 400,
                "invalid_auth_owner_key", "missing x-jagc-auth-owner header");
        // The input's body is checked before the owner header, as jagc does.
        assertJagcError(api.postJson("/v1/auth/logins/a1/input", "{\"kind\":\"manual_code\"}"), 400,
                "invalid_login_input_payload", null);
        assertJagcError(api.postJson("/v1/auth/logins/a1/input", "{\"kind\":\"magic\",\"value\":\"x\"}", owner, "me"), 400,
                "invalid_login_input_payload", null);
        assertJagcError(api.postJson("/v1/auth/logins/a1/input", "{\"kind\":\"manual_code\",\"value\":\"code\"}"), 400,
                "invalid_auth_owner_key", "missing x-jagc-auth-owner header");
        assertJagcError(api.postJson("/v1/auth/logins/a1/input", "{\"value\":\"code\"}", owner, "me"), 404,
                "auth_login_not_found", "OAuth login attempt a1 was not found");
        assertEquals(false, api.get("/v1/auth/providers").json().getJsonArray("providers").stream()
                .anyMatch(p -> p.asJsonObject().getBoolean("oauth_supported")), "no provider logs in with OAuth here");
    }

    private Api.Reply send(HttpRequest.Builder request) {
        return api.send(request);
    }

    /** jagc's envelope, {@code {"error":{"code","message"}}}; {@code message} null: any. */
    private static void assertJagcError(Api.Reply r, int status, String code, String message) {
        assertEquals(status, r.status(), r.body());
        JsonObject error = r.json().getJsonObject("error");
        assertEquals(code, error.getString("code"), r.body());
        if (message != null) {
            assertEquals(message, error.getString("message"), r.body());
        }
    }

    @Test
    void threadRunsArePagedInLaneOrder() {
        String thread = "event:owner/" + unique("repo");
        for (int i = 1; i <= 5; i++) {
            api.message(thread, "m" + i);
        }
        var firstPage = api.get("/v1/threads/" + thread + "/runs?limit=2").json();
        assertEquals(2, firstPage.getJsonArray("runs").size());
        assertEquals(2, firstPage.getJsonNumber("next_after_seq").longValue());
        var all = api.threadRuns(thread);
        assertEquals(5, all.size());
        for (int i = 0; i < 5; i++) {
            assertEquals(i + 1L, all.get(i).getJsonNumber("thread_seq").longValue());
        }
        assertError(api.get("/v1/threads/" + unique("none") + "/runs"), 404, "thread_not_found");
        assertError(api.get("/v1/threads/" + thread + "/runs?limit=0"), 400, "invalid_limit");
        assertError(api.get("/v1/threads/" + thread + "/runs?after_seq=x"), 400, "invalid_after_seq");
    }
}
