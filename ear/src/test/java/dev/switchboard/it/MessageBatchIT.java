package dev.switchboard.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.ResourceAccessMode;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.junit.jupiter.params.BeforeParameterizedClassInvocation;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/** {@code POST /v1/messages/batch} over real HTTP, on PostgreSQL: one transaction, all or none, in order. */
@ParameterizedClass(name = "on {0}") // on PostgreSQL and on the embedded H2 (SharedInstance)
@EnumSource(SharedInstance.Database.class)
@ResourceLock(value = SharedInstance.LOCK, mode = ResourceAccessMode.READ)
class MessageBatchIT {

    @Parameter
    SharedInstance.Database database;

    private static Api api;

    @BeforeParameterizedClassInvocation
    static void start(SharedInstance.Database database) {
        api = SharedInstance.api(database);
    }

    private static JsonObject message(String thread, String text, String key) {
        var b = Json.createObjectBuilder().add("thread_key", thread).add("text", text);
        if (key != null) {
            b.add("idempotency_key", key);
        }
        return b.build();
    }

    private static String batch(List<JsonObject> messages) {
        JsonArrayBuilder items = Json.createArrayBuilder();
        messages.forEach(items::add);
        return Json.createObjectBuilder().add("messages", items).build().toString();
    }

    private static void assertError(Api.Reply reply, int status, String code, String message) {
        assertEquals(status, reply.status(), reply.body());
        JsonObject error = reply.json().getJsonObject("error");
        assertEquals(code, error.getString("code"), reply.body());
        assertTrue(error.getString("message").startsWith(message), reply.body());
    }

    @Test
    void aBatchIsStoredInOrderAndEachThreadsRunsExecuteInTheBatchsOrder() {
        String a = "batch-a-" + UUID.randomUUID();
        String b = "batch-b-" + UUID.randomUUID();
        List<JsonObject> messages = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            messages.add(message(i % 3 == 0 ? b : a, "m" + i, null));
        }
        Api.Reply reply = api.postJson("/v1/messages/batch", batch(messages));
        assertEquals(202, reply.status(), reply.body());
        JsonArray runs = reply.json().getJsonArray("runs");
        assertEquals(12, runs.size());
        long seqA = 0;
        long seqB = 0;
        for (int i = 0; i < 12; i++) {
            JsonObject run = runs.getJsonObject(i);
            assertEquals(messages.get(i).getString("thread_key"), run.getString("thread_key"));
            assertEquals("running", run.getString("status"));
            long seq = run.getJsonNumber("thread_seq").longValue();
            if (run.getString("thread_key").equals(a)) {
                assertEquals(++seqA, seq, "thread a's runs are numbered in the batch's order");
            } else {
                assertEquals(++seqB, seq, "thread b's runs are numbered in the batch's order");
            }
        }
        for (int i = 0; i < 12; i++) {
            JsonObject done = api.awaitRun(runs.getJsonObject(i).getString("run_id"), 30);
            assertEquals("succeeded", done.getString("status"), done.toString());
            assertEquals("m" + i, done.getJsonObject("output").getString("text"));
        }
        for (String thread : List.of(a, b)) {
            List<String> inBatchOrder = runs.stream().map(v -> v.asJsonObject())
                    .filter(r -> r.getString("thread_key").equals(thread)).map(r -> r.getString("run_id")).toList();
            assertEquals(inBatchOrder, api.threadRuns(thread).stream().map(r -> r.getString("run_id")).toList(),
                    "the thread's lane holds the batch's messages in the batch's order, and nothing else");
        }
    }

    @Test
    void aConflictAnywhereStoresNothingAndNamesTheMessage() {
        String key = "bk-" + UUID.randomUUID();
        String used = "batch-used-" + UUID.randomUUID();
        assertEquals(202, api.postJson("/v1/messages", message(used, "first", key).toString()).status());
        String fresh = "batch-fresh-" + UUID.randomUUID();
        Api.Reply reply = api.postJson("/v1/messages/batch", batch(List.of(
                message(fresh, "one", null), message(fresh, "two", "other-" + key), message(used, "changed", key))));
        assertError(reply, 409, "idempotency_payload_mismatch", "messages[2]: idempotency key was already used");
        assertEquals(List.of(), api.threadRuns(fresh), "nothing of the refused batch was stored");
        assertEquals(1, api.threadRuns(used).size());
    }

    @Test
    void aResentBatchReturnsTheSameRunsAndQueuesNothingTwice() {
        String thread = "batch-resend-" + UUID.randomUUID();
        String body = batch(List.of(message(thread, "x", "k1-" + thread), message(thread, "y", "k2-" + thread),
                message(thread, "x", "k1-" + thread)));
        Api.Reply reply = api.postJson("/v1/messages/batch", body);
        assertEquals(202, reply.status(), reply.body());
        JsonArray first = reply.json().getJsonArray("runs");
        assertEquals(first.getJsonObject(0).getString("run_id"), first.getJsonObject(2).getString("run_id"),
                "a key repeated inside the batch names its first run");
        JsonArray again = api.postJson("/v1/messages/batch", body).json().getJsonArray("runs");
        for (int i = 0; i < 3; i++) {
            assertEquals(first.getJsonObject(i).getString("run_id"), again.getJsonObject(i).getString("run_id"));
        }
        api.awaitRun(first.getJsonObject(1).getString("run_id"), 30);
        assertEquals(2, api.threadRuns(thread).size());
    }

    @Test
    void batchesOverTheSameThreadsInOppositeOrdersNeverDeadlock() throws Exception {
        String prefix = "batch-cross-" + UUID.randomUUID() + "-";
        List<JsonObject> forward = new ArrayList<>();
        List<JsonObject> backward = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            forward.add(message(prefix + i, "f" + i, null));
            backward.add(0, message(prefix + i, "b" + i, null));
        }
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            for (int round = 0; round < 10; round++) {
                List<Future<Api.Reply>> replies = List.of(
                        pool.submit(() -> api.postJson("/v1/messages/batch", batch(forward))),
                        pool.submit(() -> api.postJson("/v1/messages/batch", batch(backward))));
                for (Future<Api.Reply> reply : replies) {
                    Api.Reply r = reply.get(60, TimeUnit.SECONDS);
                    assertEquals(202, r.status(), "threads are locked in one order whatever the batch's: " + r.body());
                }
            }
        } finally {
            pool.shutdownNow();
        }
        for (int i = 0; i < 10; i++) {
            assertEquals(20, api.threadRuns(prefix + i).size());
        }
    }

    @Test
    void malformedBatchesAreRefusedNamingTheProblem() {
        String thread = "batch-bad-" + UUID.randomUUID();
        assertError(api.postJson("/v1/messages/batch", "{}"), 400, "invalid_message_payload", "messages: required");
        assertError(api.postJson("/v1/messages/batch", "{\"messages\":{}}"), 400, "invalid_message_payload",
                "messages: expected array, received object");
        assertError(api.postJson("/v1/messages/batch", "{\"messages\":[]}"), 400, "invalid_message_payload",
                "messages: must contain at least 1 item");
        List<JsonObject> tooMany = new ArrayList<>();
        for (int i = 0; i < 101; i++) {
            tooMany.add(message(thread, "m", null));
        }
        assertError(api.postJson("/v1/messages/batch", batch(tooMany)), 400, "invalid_message_payload",
                "messages: must contain at most 100 items");
        assertError(api.postJson("/v1/messages/batch", "{\"messages\":[{\"text\":\"ok\"},7]}"), 400,
                "invalid_message_payload", "messages[1]: expected object, received number");
        assertError(api.postJson("/v1/messages/batch", "{\"messages\":[{\"text\":\"ok\"},{\"thread_key\":\"t\"}]}"), 400,
                "invalid_message_payload", "messages[1].text: required");
        assertError(api.postJson("/v1/messages/batch", "{\"messages\":[{\"text\":\"ok\",\"delivery_mode\":\"now\"}]}"),
                400, "invalid_message_payload", "messages[0].delivery_mode: expected 'steer' | 'followUp'");
        assertError(api.postJson("/v1/messages/batch", batch(List.of(message(thread, "m", null))),
                "Idempotency-Key", "k"), 400, "invalid_idempotency_key_header", "Idempotency-Key names one message");
        assertEquals(404, api.get("/v1/threads/" + thread + "/runs").status(),
                "no refused batch reached the database, not even its thread");
    }
}
