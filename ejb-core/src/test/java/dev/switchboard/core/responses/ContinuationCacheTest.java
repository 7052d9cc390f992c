package dev.switchboard.core.responses;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.switchboard.core.responses.ResponseService.Continuation;
import dev.switchboard.core.history.ResponseRecord;
import dev.switchboard.core.run.RunView;
import jakarta.json.Json;
import jakarta.json.JsonValue;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** A connection's continuations: found by response id, evicted on demand, bounded by recent use. */
class ContinuationCacheTest {

    private static Continuation after(String responseId) {
        return new Continuation(responseId, "responses/" + responseId, JsonValue.EMPTY_JSON_ARRAY);
    }

    @Test
    void aRememberedResponseIsFoundUntilEvicted() {
        ContinuationCache cache = new ContinuationCache(4);
        cache.remember(after("resp_1"));
        assertEquals(Optional.of(after("resp_1")), cache.find("resp_1"));
        assertTrue(cache.find("resp_2").isEmpty());
        cache.evict("resp_1");
        assertTrue(cache.find("resp_1").isEmpty());
    }

    @Test
    void theLeastRecentlyUsedGoesFirstWhenFull() {
        ContinuationCache cache = new ContinuationCache(2);
        cache.remember(after("resp_1"));
        cache.remember(after("resp_2"));
        cache.find("resp_1");
        cache.remember(after("resp_3"));
        assertTrue(cache.find("resp_1").isPresent());
        assertTrue(cache.find("resp_2").isEmpty());
        assertTrue(cache.find("resp_3").isPresent());
        assertThrows(IllegalArgumentException.class, () -> new ContinuationCache(0));
    }

    private static ResponseService.Response ended(String responseId, String runState, String outputJson) {
        ResponseRecord record = new ResponseRecord(responseId, "run-" + responseId, "u",
                "responses/" + responseId, null, false, JsonValue.EMPTY_JSON_OBJECT, JsonValue.EMPTY_JSON_ARRAY,
                Json.createArrayBuilder().add(ResponseObjects.inputMessage("user", "hi")).build(), 0);
        RunView run = new RunView("run-" + responseId, "x", runState, outputJson, "boom", "engine_failed",
                "responses/" + responseId, 1, "responses", "followUp", 1, 0, 0, 0L, 1L, "turn");
        return new ResponseService.Response(record, run);
    }

    @Test
    void aCompletedResponseIsRememberedAndAFailedOrAbandonedContinuationEvictsItsPrevious() {
        ContinuationCache cache = new ContinuationCache(4);
        cache.ended(Optional.empty(), ended("resp_1", "succeeded", "{\"type\":\"message\",\"text\":\"hello\"}"));
        Continuation after = cache.find("resp_1").orElseThrow();
        assertEquals("responses/resp_1", after.threadKey());
        assertEquals(2, after.prior().size(), "its input, then its reply");
        cache.ended(Optional.of("resp_1"), ended("resp_2", "failed", null));
        assertTrue(cache.find("resp_1").isEmpty(), "a failed continuation evicts what it continued");
        assertTrue(cache.find("resp_2").isEmpty(), "and a failed response is not remembered");
        cache.ended(Optional.empty(), ended("resp_3", "succeeded", "{\"type\":\"message\",\"text\":\"x\"}"));
        cache.ended(Optional.of("resp_3"), null);
        assertTrue(cache.find("resp_3").isEmpty(), "a client gone before the end evicts too");
        cache.ended(Optional.empty(), ended("resp_4", "succeeded", "{\"type\":\"message\",\"text\":\"x\"}"));
        cache.failed(Optional.of("resp_4"));
        assertTrue(cache.find("resp_4").isEmpty());
    }
}
