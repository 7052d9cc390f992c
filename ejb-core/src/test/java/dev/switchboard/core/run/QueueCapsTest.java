package dev.switchboard.core.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.switchboard.persistence.run.RunKind;
import org.junit.jupiter.api.Test;

/** Which doors meet the cap on a thread's unfinished runs, and when it is worth counting them. */
class QueueCapsTest {

    @Test
    void clientMessagesAndResponsesMeetTheCapTheServersOwnRunsAndEventsDoNot() {
        assertEquals(4, QueueCaps.runsFor(RunKind.MESSAGE, 4));
        assertEquals(4, QueueCaps.runsFor(RunKind.RESPONSE, 4));
        for (RunKind kind : new RunKind[] {RunKind.EVENT, RunKind.DELEGATED, RunKind.COMPACTION, RunKind.RESUMPTION,
                RunKind.TURN, RunKind.CHAT}) {
            assertEquals(Integer.MAX_VALUE, QueueCaps.runsFor(kind, 4), kind::toString);
        }
    }

    @Test
    void aLaneIsCountedOnlyOnceItHasHadAsManyRunsAsTheCap() {
        assertFalse(QueueCaps.mayBeFull(3, 4), "three runs ever cannot be four unfinished");
        assertTrue(QueueCaps.mayBeFull(4, 4));
        assertTrue(QueueCaps.mayBeFull(10_000, 4));
        assertFalse(QueueCaps.mayBeFull(Long.MAX_VALUE, Integer.MAX_VALUE), "no cap: never counted");
    }
}
