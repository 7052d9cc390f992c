package dev.switchboard.core.responses;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.switchboard.core.responses.ResponseService.Continuation;
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
}
