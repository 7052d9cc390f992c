package dev.switchboard.core.webhook;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.switchboard.core.json.Jsons;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class EndpointChangeTest {

    private static EndpointChange parse(String json, boolean create) {
        return EndpointChange.parse(Jsons.readObject(json), create, Set.of());
    }

    private static String code(String json, boolean create) {
        return assertThrows(WebhookException.class, () -> parse(json, create)).code();
    }

    @Test
    void readsACreate() {
        EndpointChange c = parse("{\"url\":\"https://x.example/h\",\"event_types\":[\"turn.failed\",\"turn.failed\","
                + "\"run.failed\"],\"thread_id\":\"t1\",\"description\":\"ci\",\"enabled\":false}", true);
        assertEquals("https://x.example/h", c.url());
        assertEquals(List.of("turn.failed", "run.failed"), c.eventTypes());
        assertEquals("t1", c.threadKey());
        assertEquals(Boolean.FALSE, c.enabled());
        assertFalse(c.clearThread());
    }

    @Test
    void anUpdateChangesOnlyWhatItNamesAndNullClearsTheThread() {
        EndpointChange c = parse("{\"thread_id\":null}", false);
        assertNull(c.url());
        assertNull(c.eventTypes());
        assertNull(c.enabled());
        assertTrue(c.clearThread());
    }

    @Test
    void refusesWhatIsNotAnEndpoint() {
        assertEquals("invalid_url", code("{}", true));
        assertEquals("invalid_url", code("{\"url\":5}", true));
        assertEquals("invalid_event_types", code("{\"url\":\"https://x\",\"event_types\":[]}", true));
        assertEquals("invalid_event_types", code("{\"url\":\"https://x\",\"event_types\":[\"turn.done\"]}", true));
        assertEquals("invalid_event_types", code("{\"url\":\"https://x\",\"event_types\":\"turn.failed\"}", true));
        assertEquals("invalid_enabled", code("{\"enabled\":\"yes\"}", false));
        assertEquals("invalid_thread_id", code("{\"thread_id\":\"  \"}", false));
        assertEquals("invalid_body", code("{\"secret\":\"whsec_mine\"}", false));
        assertEquals("invalid_description", code("{\"description\":\"" + "d".repeat(513) + "\"}", false));
    }
}
