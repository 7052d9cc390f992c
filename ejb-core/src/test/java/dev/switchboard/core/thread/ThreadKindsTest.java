package dev.switchboard.core.thread;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Which threads a list shows by default (people's, integrations') and which it hides (internal). */
class ThreadKindsTest {

    @Test
    void peoplesThreadsAreTheirKeys() {
        for (String key : new String[] {"main", "demo", "kitchen", "cli:default", "0b6f5c3e-6d0e-4f55-9a57-4c1f1d7a3b21",
                "Responses/resp_1", "my-responses/x", "events:x", "dash-1"}) {
            assertEquals(ThreadKind.PERSON, ThreadKinds.of("local", key), key);
            assertFalse(ThreadKinds.isInternal("local", key), key);
        }
    }

    @Test
    void anOpenResponsesChainIsInternal() {
        // ResponseService names a new chain "responses/" + its first response's id; its continuations keep the key.
        assertEquals(ThreadKind.INTERNAL, ThreadKinds.of("local", "responses/resp_0468de53a1b24c7e9f0d1e2a3b4c5d6e"));
        assertTrue(ThreadKinds.isInternal("alice", "responses/anything"));
        assertEquals(ThreadKind.INTERNAL, ThreadKinds.of("alice", "responses/"));
    }

    @Test
    void aDelegationPathIsInternalByItsServerOwnedUser() {
        // PathLanes.PATHS_USER: the lane of a path is keyed by a UUID, which alone would look like a chat's.
        assertEquals(ThreadKind.INTERNAL, ThreadKinds.of("~agents", "0b6f5c3e-6d0e-4f55-9a57-4c1f1d7a3b21"));
        assertEquals(ThreadKind.INTERNAL, ThreadKinds.of("~anything", "main"));
    }

    @Test
    void anEventsLaneIsAnIntegrations() {
        assertEquals(ThreadKind.INTEGRATION, ThreadKinds.of("local", "event:acme/widgets"));
        assertEquals(ThreadKind.INTEGRATION, ThreadKinds.of("local", "event:ci:ci.build.failed"));
        assertFalse(ThreadKinds.isInternal("local", "event:acme/widgets"));
    }

    @Test
    void aListedThreadIsInternalByItsStoredVerdictAndOtherwiseByItsKey() {
        assertEquals(ThreadKind.INTERNAL, ThreadKinds.listed("main", true));
        assertEquals(ThreadKind.INTEGRATION, ThreadKinds.listed("event:acme/widgets", false));
        assertEquals(ThreadKind.PERSON, ThreadKinds.listed("main", false));
        assertEquals("internal", new ThreadRow(1, "responses/resp_1", 0, true).kind().wire());
        assertEquals("person", ThreadKind.PERSON.wire());
        assertEquals("integration", ThreadKind.INTEGRATION.wire());
    }
}
