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
    void aCreateHearsEveryEventUnlessToldAndSaysWhoDisabledIt() {
        Endpoint on = parse("{\"url\":\"https://x.example/h\"}", true).created("ep_1", "u", "https://x.example/h", "sealed", 5);
        assertEquals(WebhookEvents.ALL, on.eventTypes());
        assertTrue(on.enabled());
        assertNull(on.disabledReason());
        Endpoint off = parse("{\"url\":\"https://x.example/h\",\"enabled\":false}", true)
                .created("ep_2", "u", "https://x.example/h", "sealed", 5);
        assertFalse(off.enabled());
        assertEquals(EndpointChange.DISABLED_BY_USER, off.disabledReason());
    }

    @Test
    void anUpdateKeepsWhatItDoesNotNameAndEnablingClearsWhyItWasDisabled() {
        Endpoint failed = new Endpoint("ep_1", "u", "https://x.example/h", "ci", List.of("turn.failed"), "t1", "s", "p", 9L,
                false, "message m failed 8 attempts", 1, 2);
        Endpoint renamed = parse("{\"description\":\"nightly\"}", false).applyTo(failed, null, 7);
        assertEquals("nightly", renamed.description());
        assertEquals("https://x.example/h", renamed.url());
        assertEquals("t1", renamed.threadKey());
        assertEquals(List.of("turn.failed"), renamed.eventTypes());
        assertFalse(renamed.enabled());
        assertEquals("message m failed 8 attempts", renamed.disabledReason(), "still disabled, for the same reason");
        assertEquals("p", renamed.previousSecret());
        assertEquals(7, renamed.updatedAt());

        Endpoint enabled = parse("{\"enabled\":true,\"thread_id\":null}", false).applyTo(failed, "https://y.example/h", 8);
        assertTrue(enabled.enabled());
        assertNull(enabled.disabledReason());
        assertNull(enabled.threadKey(), "null hears every thread again");
        assertEquals("https://y.example/h", enabled.url());

        Endpoint off = parse("{\"enabled\":false}", false).applyTo(enabled, null, 9);
        assertEquals(EndpointChange.DISABLED_BY_USER, off.disabledReason());
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
