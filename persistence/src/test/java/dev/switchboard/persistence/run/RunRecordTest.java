package dev.switchboard.persistence.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
    void eachClaimStartsANewAttemptWhichIsTheFence() {
        RunRecord run = newRun();
        assertEquals(1, run.claim("a", 2000));
        assertTrue(run.isExecutingAttempt(1));
        run.requeue(3000);
        assertFalse(run.isExecutingAttempt(1));
        assertEquals(2, run.claim("b", 4000));
        assertFalse(run.isExecutingAttempt(1), "the first owner's fence is stale");
        assertTrue(run.isExecutingAttempt(2));
        assertEquals("b", run.getClaimedBy());
    }

    @Test
    void succeedingRecordsOutputAndEndTime() {
        RunRecord run = newRun();
        run.claim("a", 2000);
        run.succeed("{\"type\":\"message\"}", 2500);
        assertEquals(RunState.SUCCEEDED, run.getState());
        assertEquals("succeeded", run.getState().jagcStatus());
        assertEquals("{\"type\":\"message\"}", run.getOutputJson());
        assertEquals(2500L, run.getFinishedAt());
        assertFalse(run.isExecutingAttempt(1));
    }

    @Test
    void failingKeepsOutputNull() {
        RunRecord run = newRun();
        run.claim("a", 2000);
        run.fail("agent exploded", 2500);
        assertEquals("failed", run.getState().jagcStatus());
        assertEquals("agent exploded", run.getErrorMessage());
        assertNull(run.getOutputJson());
    }

    @Test
    void queuedAndExecutingRunsCanBeCancelledWithAReasonCode() {
        RunRecord queued = newRun();
        queued.fail("cancelled", "cancelled", 1500);
        assertEquals(RunState.FAILED, queued.getState());
        assertEquals("cancelled", queued.getErrorCode());
        RunRecord executing = newRun();
        executing.claim("a", 2000);
        executing.fail("cancelled", "cancelled", 2500);
        assertFalse(executing.isExecutingAttempt(1), "the owner's late result is fenced out");
        assertNull(newRunFailedByEngine().getErrorCode());
    }

    private static RunRecord newRunFailedByEngine() {
        RunRecord run = newRun();
        run.claim("a", 2000);
        run.fail("agent exploded", 2500);
        return run;
    }

    @Test
    void terminalRunsRefuseEveryTransitionWithJagcsMessage() {
        RunRecord run = newRun();
        run.claim("a", 2000);
        run.succeed("{}", 2500);
        IllegalRunTransitionException e = assertThrows(IllegalRunTransitionException.class,
                () -> run.fail("late", 3000));
        assertEquals("cannot mark run r1 as failed: run is already succeeded", e.getMessage());
        assertThrows(IllegalRunTransitionException.class, () -> run.claim("b", 3000));
        assertThrows(IllegalRunTransitionException.class, () -> run.requeue(3000));
    }

    @Test
    void aQueuedRunCannotCompleteWithoutBeingClaimed() {
        RunRecord run = newRun();
        assertThrows(IllegalRunTransitionException.class, () -> run.succeed("{}", 2000));
        assertThrows(IllegalRunTransitionException.class, () -> run.requeue(2000));
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
