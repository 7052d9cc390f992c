package dev.switchboard.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.ResourceAccessMode;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.junit.jupiter.params.BeforeParameterizedClassInvocation;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A thread's conversation history (issue 14) over real HTTP, on PostgreSQL: what each run adds,
 * the paged read {@code GET /v1/threads/{key}/items}, and what the engine is given — the scripted
 * engine's {@code history} directive answers with the items its call received.
 */
@ParameterizedClass(name = "on {0}") // on PostgreSQL and on the embedded H2 (SharedInstance)
@EnumSource(SharedInstance.Database.class)
@ResourceLock(value = SharedInstance.LOCK, mode = ResourceAccessMode.READ)
class ConversationHistoryIT {

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

    private static String send(String thread, String text) {
        String runId = api.message(thread, text).getString("run_id");
        api.awaitRun(runId, 30);
        return runId;
    }

    private static List<JsonObject> allItems(String thread) {
        List<JsonObject> items = new ArrayList<>();
        String after = "0";
        while (true) {
            Api.Reply reply = api.get("/v1/threads/" + thread + "/items?limit=3&after_seq=" + after);
            assertEquals(200, reply.status(), reply.body());
            JsonObject page = reply.json();
            page.getJsonArray("items").getValuesAs(JsonObject.class).forEach(items::add);
            if (page.isNull("next_after_seq")) {
                return items;
            }
            after = String.valueOf(page.getJsonNumber("next_after_seq").longValue());
        }
    }

    private static String text(JsonObject entry) {
        return entry.getJsonObject("item").getJsonArray("content").getJsonObject(0).getString("text");
    }

    @Test
    void eachRunAddsItsInputAndReplyInOrderAndTheEngineIsGivenWhatCameBefore() {
        String thread = "history/" + unique("t");
        String first = send(thread, "one");
        send(thread, "two");
        String failed = send(thread, "fail engine broke");

        List<JsonObject> items = allItems(thread);
        List<String> said = items.stream().map(e -> e.getJsonObject("item").getString("role") + ":" + text(e)).toList();
        assertEquals(List.of("user:one", "assistant:one", "user:two", "assistant:two", "user:fail engine broke"), said,
                "a failed run adds its input and no reply");
        long previous = 0;
        for (JsonObject entry : items) {
            long seq = entry.getJsonNumber("seq").longValue();
            assertTrue(seq > previous, "seqs increase: " + items);
            previous = seq;
            JsonObject item = entry.getJsonObject("item");
            assertEquals("message", item.getString("type"));
            assertEquals("completed", item.getString("status"));
            assertTrue(item.getString("id").startsWith("msg_"), item.toString());
            assertFalse(entry.getString("turn_id").isBlank());
        }
        assertEquals(first, items.get(0).getString("run_id"));
        assertEquals(first, items.get(1).getString("run_id"));
        assertEquals("output_text", items.get(1).getJsonObject("item").getJsonArray("content").getJsonObject(0)
                .getString("type"));
        assertEquals(failed, items.get(4).getString("run_id"));

        String asked = send(thread, "history");
        JsonObject reply = api.awaitRun(asked, 30);
        assertEquals("history(5): user: one | assistant: one | user: two | assistant: two | user: fail engine broke",
                reply.getJsonObject("output").getString("text"));
        assertEquals(7, allItems(thread).size(), "the history run added its input and its reply");
    }

    @Test
    void threadsDoNotSeeEachOthersHistory() {
        String a = "history/" + unique("a");
        String b = "history/" + unique("b");
        send(a, "only in a");
        String asked = send(b, "history");
        assertEquals("history(0): ", api.awaitRun(asked, 30).getJsonObject("output").getString("text"));
    }

    @Test
    void badReadsAreClearErrors() {
        String thread = "history/" + unique("t");
        send(thread, "x");
        assertError(api.get("/v1/threads/" + unique("none") + "/items"), 404, "thread_not_found");
        assertError(api.get("/v1/threads/" + thread + "/items?limit=0"), 400, "invalid_limit");
        assertError(api.get("/v1/threads/" + thread + "/items?limit=201"), 400, "invalid_limit");
        assertError(api.get("/v1/threads/" + thread + "/items?after_seq=-1"), 400, "invalid_after_seq");
        Api.Reply byQuery = api.get("/v1/threads/items?thread_key=" + thread.replace("/", "%2F"));
        assertEquals(200, byQuery.status(), byQuery.body());
        assertEquals(2, byQuery.json().getJsonArray("items").size());
    }

    private static void assertError(Api.Reply reply, int status, String code) {
        assertEquals(status, reply.status(), reply.body());
        assertEquals(code, reply.json().getJsonObject("error").getString("code"), reply.body());
    }
}
