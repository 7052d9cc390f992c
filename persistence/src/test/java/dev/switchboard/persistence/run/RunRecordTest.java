package dev.switchboard.persistence.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class RunRecordTest {

    private static RunRecord newRun() {
        return new RunRecord("r1", 7, 1, "local", "cli:default", "cli", RunKind.MESSAGE, null, "followUp", "ping", "hash", 1000);
    }

    @Test
    void aNewRunIsQueuedAndReportsRunningToJagcClients() {
        RunRecord run = newRun();
        assertEquals(RunState.QUEUED, run.getState());
        assertEquals("running", run.getState().jagcStatus());
        assertEquals(0, run.getAttempt());
    }

    @Test
    void aRunAddedStartedIsClaimedOnceAsItsFirstAttempt() {
        RunRecord run = newRun();
        assertEquals(1, run.claim("a", 2000));
        assertEquals(RunState.EXECUTING, run.getState());
        assertEquals("a", run.getClaimedBy());
        assertEquals(2000L, run.getStartedAt());
        IllegalRunTransitionException e = assertThrows(IllegalRunTransitionException.class, () -> run.claim("b", 3000));
        assertEquals("cannot mark run r1 as executing: run is already executing", e.getMessage());
    }

    @Test
    void stateNamesRoundTripThroughTheColumnConverter() {
        RunStateConverter converter = new RunStateConverter();
        for (RunState s : RunState.values()) {
            assertEquals(s, converter.convertToEntityAttribute(converter.convertToDatabaseColumn(s)));
        }
        assertEquals("executing", converter.convertToDatabaseColumn(RunState.EXECUTING));
        assertThrows(IllegalArgumentException.class, () -> RunState.fromWire("running"));
    }
}
