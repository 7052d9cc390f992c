package dev.switchboard.core.lane;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.switchboard.persistence.run.RunState;
import org.junit.jupiter.api.Test;

/** A run as the lane first writes it: queued, or started as it is added — once. */
class NewRunTest {

    private static NewRun queued() {
        return NewRun.queued("r1", 7, 1, 1000, new LaneFixture.Input("ping"));
    }

    @Test
    void aNewRunIsQueuedAndReportsRunningToJagcClients() {
        NewRun run = queued();
        assertEquals(RunState.QUEUED, run.state());
        assertEquals("running", run.state().jagcStatus());
        assertEquals(0, run.attempt());
        assertNull(run.startedAt());
        assertNull(run.startedBy());
    }

    @Test
    void aRunAddedStartedIsItsOwnersFirstAttemptOnce() {
        NewRun run = queued().startedBy("a");
        assertEquals(RunState.EXECUTING, run.state());
        assertEquals(1, run.attempt());
        assertEquals("a", run.startedBy());
        assertEquals(1000L, run.startedAt(), "started as it was added");
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> run.startedBy("b"));
        assertEquals("run r1 is started already, by a", e.getMessage());
    }

    @Test
    void aRunHasAPayload() {
        assertThrows(NullPointerException.class, () -> NewRun.queued("r1", 7, 1, 1000, null));
    }
}
