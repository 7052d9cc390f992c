package dev.switchboard.core.turn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class TurnAdmissionTest {

    private static final TurnAdmission.Active RUNNING = new TurnAdmission.Active("t1", true, true,
            () -> List.of(TurnInput.ofText("one")));
    private static final TurnAdmission.Active WAITING = new TurnAdmission.Active("t2", false, true,
            () -> List.of(TurnInput.ofText("two"), TurnInput.ofText("two, steered")));
    private static final TurnAdmission.Active WAITING_TOO = new TurnAdmission.Active("t3", false, true,
            () -> List.of(TurnInput.ofText("three")));
    private static final TurnInput NEW = TurnInput.ofText("four");

    private static List<String> texts(TurnInput input) {
        return input.messages().stream()
                .map(m -> m.getJsonArray("content").getJsonObject(0).getString("text"))
                .toList();
    }

    /** What the admission of {@link #NEW} under {@code policy} did to the three active turns. */
    private static TurnAdmission admitted(TurnPolicy policy, List<String> superseded, List<String> interrupted,
            boolean merged, List<String> inputTexts) {
        TurnAdmission a = TurnAdmission.decide(policy, 10, "main", List.of(RUNNING, WAITING, WAITING_TOO), NEW);
        assertEquals(superseded, a.superseded(), "superseded");
        assertEquals(interrupted, a.interrupted(), "interrupted");
        assertEquals(merged, a.merged(), "merged");
        assertEquals(inputTexts, texts(a.input()), "the new turn's input");
        return a;
    }

    @Test
    void followupQueuesBehindEveryActiveTurn() {
        admitted(TurnPolicy.FOLLOWUP, List.of(), List.of(), false, List.of("four"));
    }

    @Test
    void collectSupersedesTheWaitingTurnsAndCarriesTheirInputInOrder() {
        TurnAdmission a = admitted(TurnPolicy.COLLECT, List.of("t2", "t3"), List.of(), true,
                List.of("two", "two, steered", "three", "four"));
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
        TurnAdmission a = admitted(TurnPolicy.INTERRUPT, List.of("t2", "t3"), List.of("t1"), false, List.of("four"));
        assertEquals("superseded by newer turn (interrupt policy)", a.reason());
    }

    @Test
    void theWaitingTurnsInputIsReadOnlyWhenAPolicyCarriesIt() {
        TurnAdmission.Active unreadable = new TurnAdmission.Active("t2", false, true, () -> {
            throw new AssertionError("input read though the policy does not carry it");
        });
        for (TurnPolicy policy : List.of(TurnPolicy.FOLLOWUP, TurnPolicy.INTERRUPT)) {
            TurnAdmission a = TurnAdmission.decide(policy, 10, "main", List.of(RUNNING, unreadable), NEW);
            assertEquals(List.of("four"), texts(a.input()), policy + " starts with the new input alone");
        }
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

    @Test
    void aConversationMergesEveryWaitingMessageIntoTheNewTurnAndLeavesTheRunningOne() {
        TurnAdmission a = TurnAdmission.queueing(10, "full").decide("main", List.of(RUNNING, WAITING, WAITING_TOO), NEW);
        assertEquals(List.of("t2", "t3"), a.superseded());
        assertEquals(List.of(), a.interrupted());
        assertTrue(a.merged());
        assertEquals(List.of("two", "two, steered", "three", "four"), texts(a.input()));
    }

    @Test
    void aConversationOnAnIdleOrBusyThreadStartsWithItsOwnInput() {
        for (List<TurnAdmission.Active> active : List.of(List.<TurnAdmission.Active>of(), List.of(RUNNING))) {
            TurnAdmission a = TurnAdmission.queueing(10, "full").decide("main", active, NEW);
            assertEquals(List.of(), a.superseded());
            assertFalse(a.merged());
            assertEquals(List.of("four"), texts(a.input()));
        }
    }

    @Test
    void aConversationRefusesTheMessageAfterTheMaximumThatWait() {
        TurnAdmission.Rule rule = TurnAdmission.queueing(3, "Message queue full (3).");
        TurnRejectedException e = assertThrows(TurnRejectedException.class,
                () -> rule.decide("main", List.of(RUNNING, WAITING, WAITING_TOO), NEW));
        assertEquals(TurnRejectedException.Reason.QUEUE_FULL, e.reason());
        assertEquals("Message queue full (3).", e.getMessage());
        assertEquals(List.of("two", "two, steered", "four"), texts(rule.decide("main", List.of(RUNNING, WAITING), NEW)
                .input()), "two waiting: the third is admitted");
    }

    /** A run another door acknowledged (a POST /v1/messages on the chat thread), waiting. */
    private static final TurnAdmission.Active OTHER_DOOR = new TurnAdmission.Active("api", false, false,
            () -> {
                throw new AssertionError("another door's input is never carried");
            });
    private static final TurnAdmission.Active OTHER_DOOR_RUNNING = new TurnAdmission.Active("api", true, false,
            () -> List.of(TurnInput.ofText("api")));

    @Test
    void aMessageNeverMergesARunFromAnotherDoorAndQueuesBehindIt() {
        TurnAdmission.Rule rule = TurnAdmission.queueing(10, "full");
        TurnAdmission behind = rule.decide("main", List.of(RUNNING, OTHER_DOOR), NEW);
        assertEquals(List.of(), behind.superseded(), "the API run keeps its turn");
        assertFalse(behind.merged());
        assertEquals(List.of("four"), texts(behind.input()));

        TurnAdmission after = rule.decide("main", List.of(RUNNING, WAITING, OTHER_DOOR), NEW);
        assertEquals(List.of(), after.superseded(), "a message waiting before the API run does not jump over it");
        assertEquals(List.of("four"), texts(after.input()));

        TurnAdmission tail = rule.decide("main", List.of(RUNNING, OTHER_DOOR, WAITING, WAITING_TOO), NEW);
        assertEquals(List.of("t2", "t3"), tail.superseded(), "the messages behind the API run merge");
        assertEquals(List.of("two", "two, steered", "three", "four"), texts(tail.input()));
    }

    @Test
    void aConversationCountsEveryWaitingMessageTowardsItsLimitWhereverItWaits() {
        TurnAdmission.Rule rule = TurnAdmission.queueing(3, "full");
        assertThrows(TurnRejectedException.class,
                () -> rule.decide("main", List.of(RUNNING, WAITING, OTHER_DOOR, WAITING_TOO), NEW));
    }

    @Test
    void aMergedTurnCountsEachOfItsMessagesTowardsTheLimit() {
        TurnAdmission.Active merged = new TurnAdmission.Active("t2", false, true,
                () -> List.of(TurnInput.ofText("a").then(TurnInput.ofText("b")).then(TurnInput.ofText("c"))));
        assertThrows(TurnRejectedException.class,
                () -> TurnAdmission.queueing(3, "full").decide("main", List.of(RUNNING, merged), NEW));
        assertEquals(List.of("a", "b", "c", "four"), texts(TurnAdmission.queueing(4, "full")
                .decide("main", List.of(RUNNING, merged), NEW).input()));
    }

    @Test
    void aConversationReadsEachWaitingTurnsInputOnce() {
        java.util.concurrent.atomic.AtomicInteger reads = new java.util.concurrent.atomic.AtomicInteger();
        TurnAdmission.Active counted = new TurnAdmission.Active("t2", false, true, () -> {
            reads.incrementAndGet();
            return List.of(TurnInput.ofText("two"));
        });
        TurnAdmission a = TurnAdmission.queueing(10, "full").decide("main", List.of(RUNNING, counted), NEW);
        assertEquals(List.of("two", "four"), texts(a.input()));
        assertEquals(1, reads.get(), "counted for the limit and merged, read once");
    }

    @Test
    void noPolicyActsOnAnotherDoorsTurns() {
        for (TurnPolicy policy : TurnPolicy.values()) {
            TurnAdmission a = TurnAdmission.decide(policy, 10, "main", List.of(OTHER_DOOR_RUNNING, OTHER_DOOR), NEW);
            assertEquals(List.of(), a.superseded(), policy + " supersedes nothing of another door");
            assertEquals(List.of(), a.interrupted(), policy + " interrupts nothing of another door");
            assertEquals(List.of("four"), texts(a.input()));
        }
    }
}
