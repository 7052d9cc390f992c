package dev.switchboard.core.lane;



import static dev.switchboard.core.lane.LaneFixture.claim;
import static dev.switchboard.core.lane.LaneFixture.claimed;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.switchboard.testkit.Await;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class LaneRunnerTest {

    private final LaneFixture lane = new LaneFixture(4);

    @AfterEach
    void close() {
        lane.close();
    }

    @Test
    void aFinishedRunRecordsItsResultAndChainsTheNextRunOnTheSameSlot() {
        Claim a = claim("a", 1, 1);
        Claim b = claim("b", 1, 1);
        lane.store.onFinish = f -> f.claim().equals(a)
                ? new LaneStore.FinishResult(false, claimed(b))
                : new LaneStore.FinishResult(false, ClaimResult.none());
        lane.admit(a);
        assertEquals(List.of(a.key()), lane.work.started);
        assertEquals(1, lane.slots.inUse());

        lane.work.complete(a.key(), "A");
        assertEquals("{\"text\":\"A\"}", lane.store.finishesOf(a.key()).get(0).outputJson());
        assertTrue(lane.store.finishesOf(a.key()).get(0).chain());
        assertEquals(List.of(a.key(), b.key()), lane.work.started, "the next run starts at once");
        assertEquals(1, lane.slots.inUse(), "on the same slot");

        lane.work.complete(b.key(), "B");
        assertEquals(0, lane.slots.inUse());
        assertFalse(lane.slots.isDriven(1));
        assertEquals(List.of(), lane.runner.executions());
    }

    @Test
    void theWorkIsClosedBeforeItsResultIsWritten() {
        // What the work still shows (an engine's streamed progress) must not follow its result.
        Claim run = claim("r", 1, 1);
        List<Boolean> closedAtFinish = new java.util.concurrent.CopyOnWriteArrayList<>();
        lane.store.onFinish = f -> {
            closedAtFinish.add(lane.work.jobs.get(run.key()).closed);
            return new LaneStore.FinishResult(false, ClaimResult.none());
        };
        lane.admit(run);
        assertFalse(lane.work.jobs.get(run.key()).closed, "open while it works");
        lane.work.complete(run.key(), "done");
        assertEquals(List.of(true), closedAtFinish);
    }

    @Test
    void aRunWhosePreparationFailsIsRecordedFailedAndItsSlotFreed() {
        Claim run = claim("r", 1, 1);
        lane.work.failingPreparations.add(run.key());
        lane.admit(run);
        List<LaneFixture.Finish> finishes = lane.store.finishesOf(run.key());
        assertEquals(1, finishes.size(), "recorded as its work's failure would be");
        assertNull(finishes.get(0).outputJson());
        assertEquals("reading what r needs failed", finishes.get(0).errorMessage());
        assertEquals(0, lane.slots.inUse(), "the slot is free");
        assertEquals(List.of(), lane.runner.executions());
    }

    @Test
    void waitersAreToldARunEndedOnlyOnceItsSlotIsFree() {
        // A client that waits for its run and posts the next message at once must find the slot
        // free, so that the ingest claims its idle lane in the same transaction.
        Claim a = claim("a", 1, 1);
        lane.store.onFinish = f -> new LaneStore.FinishResult(false, ClaimResult.none());
        List<Integer> inUseWhenTold = new java.util.concurrent.CopyOnWriteArrayList<>();
        lane.onChanged = id -> inUseWhenTold.add(lane.slots.inUse());
        lane.admit(a);
        lane.work.complete(a.key(), "A");
        assertEquals(1, lane.store.finishesOf(a.key()).size());
        assertEquals(0, inUseWhenTold.get(inUseWhenTold.size() - 1), "told of the end while its slot was still held");
    }

    @Test
    void aNewerAttemptClaimedHereStopsTheOlderOneWhoseEndLeavesTheNewerAlone() {
        // Defect 1: the run's own lease expired during a stall; an ingest here reclaimed it as attempt 2.
        Claim first = claim("r", 1, 1);
        Claim second = claim("r", 1, 2);
        lane.admit(first);
        LaneFixture.ManualWork.ManualJob firstCall = lane.work.jobs.get(first.key());
        assertFalse(firstCall.cancelled());

        lane.admit(second);
        assertTrue(firstCall.stopped(), "the older engine call is told to stop before the newer one starts");
        assertEquals(List.of(first.key(), second.key()), lane.work.started);
        assertEquals(List.of(), lane.store.finishesOf(first.key()), "a superseded attempt records nothing");
        assertEquals(List.of(second.key()), lane.runner.executions().stream().map(Execution::key).toList(),
                "only the newer attempt is executing: its lease keeps being renewed");
        assertTrue(lane.slots.isDriven(1));
        assertEquals(1, lane.slots.inUse(), "the older attempt gave its slot back");

        lane.work.complete(second.key(), "done");
        assertEquals(1, lane.store.finishesOf(second.key()).size());
        assertEquals(0, lane.slots.inUse());
    }

    @Test
    void theSameAttemptReachedTwiceExecutesOnce() {
        // An ingest here committed a claim and is about to start it, while a wake-up's claim of the
        // same lane adopts that attempt first (its own live lease): one execution, one slot.
        Claim run = claim("r", 1, 1);
        assertTrue(lane.runner.reserve());
        lane.store.onClaim = thread -> claimed(run);
        lane.runner.wake(1);
        lane.runner.admitted(claimed(run), lane.nanos.get());
        assertEquals(List.of(run.key()), lane.work.started);
        assertEquals(1, lane.slots.inUse(), "the reservation went back");
        assertEquals(2, lane.work.all.size(), "prepared twice");
        LaneFixture.ManualWork.ManualJob duplicate = lane.work.all.get(1);
        assertFalse(duplicate.started, "the second is never started");
        assertTrue(duplicate.closed, "and closed at once: what it opened is let go");
        lane.work.complete(run.key(), "done");
        assertEquals(1, lane.store.finishes.size());
        assertEquals(0, lane.slots.inUse());
    }

    @Test
    void aFinishWhoseCommitOutcomeIsUnknownIsRetriedAndAdoptsWhatItChained() throws Exception {
        // Defect 4: the finish committed (a done, b claimed for this instance) but the answer was lost.
        Claim a = claim("a", 1, 1);
        Claim b = claim("b", 1, 1);
        AtomicInteger tries = new AtomicInteger();
        lane.store.onFinish = f -> {
            if (f.claim().equals(a) && tries.incrementAndGet() == 1) {
                throw new IllegalStateException("connection reset during commit");
            }
            return f.claim().equals(a)
                    ? new LaneStore.FinishResult(true, claimed(b)) // fenced by its own commit; b adopted
                    : new LaneStore.FinishResult(false, ClaimResult.none());
        };
        lane.admit(a);
        lane.work.complete(a.key(), "A");
        Await.until(Duration.ofSeconds(5), () -> lane.work.started.contains(b.key()),
                "the chained run is adopted and started");
        assertEquals(2, lane.store.finishesOf(a.key()).size(), "one retry");
        assertEquals(List.of(a.key(), b.key()), lane.work.started, "each attempt executed once");
        assertEquals(1, lane.slots.inUse());
    }

    @Test
    void aFailedAdmissionWakesTheLaneWhoseClaimAdoptsWhatTheTransactionTook() {
        Claim taken = claim("r", 3, 1);
        lane.store.onClaim = thread -> thread == 3 ? claimed(taken) : ClaimResult.none();
        assertTrue(lane.runner.reserve());
        lane.runner.admitFailed(3L);
        assertEquals(List.of(3L), lane.store.claims);
        assertEquals(List.of(taken.key()), lane.work.started);
        assertEquals(1, lane.slots.inUse(), "the reservation went back; the adopted run holds one slot");
    }

    @Test
    void aRunEndedElsewhereStopsItsEngineAndTheFenceDecidesTheWrite() {
        Claim run = claim("r", 1, 1);
        lane.admit(run);
        lane.runner.stop(List.of("r"), Execution.Stop.ENDED_ELSEWHERE);
        assertTrue(lane.work.jobs.get(run.key()).stopped());
        List<LaneFixture.Finish> finishes = lane.store.finishesOf(run.key());
        assertEquals(1, finishes.size(), "the finish is attempted; the store fences it out");
        assertNull(finishes.get(0).outputJson());
        assertNotNull(finishes.get(0).errorMessage());
        assertEquals(0, lane.slots.inUse());
    }

    @Test
    void anExecutionThatLostItsLeaseStopsAndRecordsNothing() {
        Claim run = claim("r", 1, 1);
        lane.admit(run);
        lane.execution(run.key()).stop(Execution.Stop.LEASE_LOST);
        assertTrue(lane.work.jobs.get(run.key()).stopped());
        assertEquals(List.of(), lane.store.finishes);
        assertEquals(0, lane.slots.inUse());
        assertFalse(lane.slots.isDriven(1));
        lane.work.complete(run.key(), "too late");
        assertEquals(List.of(), lane.store.finishes, "a late engine result is dropped");
    }

    @Test
    void aResultThatArrivedBeforeTheLeaseWasLostIsStillRecordedBehindTheFence() {
        Claim run = claim("r", 1, 1);
        lane.store.onFinish = f -> {
            lane.execution(run.key()).stop(Execution.Stop.LEASE_LOST); // the deadline passes while it writes
            return new LaneStore.FinishResult(false, ClaimResult.none());
        };
        lane.admit(run);
        lane.work.complete(run.key(), "done in time");
        assertEquals(1, lane.store.finishes.size());
        assertEquals("{\"text\":\"done in time\"}", lane.store.finishes.get(0).outputJson());
    }

    @Test
    void theEngineSeesItsCancellationTheMomentTheLeaseDeadlinePasses() {
        Claim run = claim("r", 1, 1);
        lane.admit(run);
        LaneFixture.ManualWork.ManualJob call = lane.work.jobs.get(run.key());
        lane.advanceMs(LaneFixture.LEASE_MS - LaneFixture.MARGIN_MS - 1);
        assertFalse(call.cancelled(), "still within the lease");
        lane.advanceMs(1);
        assertTrue(call.cancelled(), "at the deadline, without waiting for any watchdog");
    }

    @Test
    void anEngineThatNoticesTheDeadlineItselfFailsNothing() {
        // The engine's own check sees the deadline first and fails its call as cancelled: that is
        // a lost lease, not the run's failure; the run is left to recovery.
        Claim run = claim("r", 1, 1);
        lane.admit(run);
        LaneFixture.ManualWork.ManualJob call = lane.work.jobs.get(run.key());
        lane.advanceMs(LaneFixture.LEASE_MS);
        assertTrue(call.cancelled());
        lane.work.calls.get(run.key()).completeExceptionally(new IllegalStateException("cancelled"));
        assertEquals(List.of(), lane.store.finishes, "nothing recorded");
        assertEquals(0, lane.slots.inUse());
    }

    @Test
    void anAdoptedClaimCountsItsDeadlineFromWhatIsLeftOfTheLease() {
        Claim adopted = new Claim("r", 1, 1, 500, 0, new LaneFixture.Input("x"), LaneFixture.NO_CHOICE);
        lane.admit(adopted);
        LaneFixture.ManualWork.ManualJob call = lane.work.jobs.get(adopted.key());
        lane.advanceMs(500 - LaneFixture.MARGIN_MS);
        assertTrue(call.cancelled());
    }

    @Test
    void afterStopAcceptingNothingNewStartsAndChainsAreNotFollowed() {
        Claim a = claim("a", 1, 1);
        Claim b = claim("b", 1, 1);
        lane.store.onFinish = f -> new LaneStore.FinishResult(false, f.chain() ? claimed(b) : ClaimResult.none());
        lane.admit(a);
        lane.runner.stopAccepting();
        lane.work.complete(a.key(), "A");
        assertFalse(lane.store.finishesOf(a.key()).get(0).chain(), "no chaining while stopping");
        assertEquals(List.of(a.key()), lane.work.started);
        assertFalse(lane.runner.reserve());
        assertEquals(0, lane.slots.inUse());
    }

    @Test
    void aTimedOutOrFailedEngineIsStoppedAndItsFailureRecorded() {
        Claim run = claim("r", 1, 1);
        lane.admit(run);
        lane.work.calls.get(run.key()).completeExceptionally(new IllegalStateException("model server said no"));
        assertEquals("model server said no", lane.store.finishes.get(0).errorMessage());
        assertTrue(lane.work.jobs.get(run.key()).cancelled());
    }
}
