package dev.switchboard.core.turn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class TurnAdmissionTest {

    private static final TurnAdmission.Active RUNNING = new TurnAdmission.Active("t1", true,
            List.of(TurnInput.ofText("one")));
    private static final TurnAdmission.Active WAITING = new TurnAdmission.Active("t2", false,
            List.of(TurnInput.ofText("two"), TurnInput.ofText("two, steered")));
    private static final TurnAdmission.Active WAITING_TOO = new TurnAdmission.Active("t3", false,
            List.of(TurnInput.ofText("three")));
    private static final TurnInput NEW = TurnInput.ofText("four");

    private static List<String> texts(TurnInput input) {
        return input.messages().stream()
                .map(m -> m.getJsonArray("content").getJsonObject(0).getString("text"))
                .toList();
    }

    @Test
    void followupQueuesBehindEveryActiveTurn() {
        TurnAdmission a = TurnAdmission.decide(TurnPolicy.FOLLOWUP, 10, "main",
                List.of(RUNNING, WAITING, WAITING_TOO), NEW);
        assertEquals(List.of(), a.superseded());
        assertEquals(List.of(), a.interrupted());
        assertFalse(a.merged());
        assertEquals(List.of("four"), texts(a.input()));
    }

    @Test
    void collectSupersedesTheWaitingTurnsAndCarriesTheirInputInOrder() {
        TurnAdmission a = TurnAdmission.decide(TurnPolicy.COLLECT, 10, "main",
                List.of(RUNNING, WAITING, WAITING_TOO), NEW);
        assertEquals(List.of("t2", "t3"), a.superseded());
        assertEquals(List.of(), a.interrupted(), "collect leaves the running turn alone");
        assertTrue(a.merged());
        assertEquals(List.of("two", "two, steered", "three", "four"), texts(a.input()));
        assertEquals("superseded by newer turn (collect policy)", a.reason());
    }

    @Test
    void collectWithNothingWaitingMergesNothing() {
        TurnAdmission a = TurnAdmission.decide(TurnPolicy.COLLECT, 10, "main", List.of(RUNNING), NEW);
        assertFalse(a.merged());
        assertEquals(List.of("four"), texts(a.input()));
    }

    @Test
    void interruptStopsTheRunningTurnAndDropsTheWaitingOnesInput() {
        TurnAdmission a = TurnAdmission.decide(TurnPolicy.INTERRUPT, 10, "main",
                List.of(RUNNING, WAITING, WAITING_TOO), NEW);
        assertEquals(List.of("t1"), a.interrupted());
        assertEquals(List.of("t2", "t3"), a.superseded());
        assertFalse(a.merged());
        assertEquals(List.of("four"), texts(a.input()));
        assertEquals("superseded by newer turn (interrupt policy)", a.reason());
    }

    @Test
    void aFullQueueIsRefusedWithHolonsMessageWhateverThePolicy() {
        for (TurnPolicy policy : TurnPolicy.values()) {
            TurnRejectedException e = assertThrows(TurnRejectedException.class,
                    () -> TurnAdmission.decide(policy, 2, "main", List.of(RUNNING, WAITING), NEW));
            assertEquals(TurnRejectedException.Reason.QUEUE_FULL, e.reason());
            assertEquals("session main queue is full (2 queued turns)", e.getMessage());
        }
        assertEquals(List.of("t1"), TurnAdmission.decide(TurnPolicy.INTERRUPT, 2, "main", List.of(RUNNING), NEW)
                .interrupted(), "one below the limit is admitted");
    }
}
