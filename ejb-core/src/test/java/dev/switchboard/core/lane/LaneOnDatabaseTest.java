package dev.switchboard.core.lane;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.switchboard.core.sql.FreshDatabase;
import dev.switchboard.core.sql.Statements;
import dev.switchboard.testkit.Await;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The lane's rules in-process — no container — on the real PostgreSQL and on the embedded H2: one
 * owner at a time, FIFO, a lost lease taken over and the late owner fenced out, every end (a
 * finish, a cancel, an interrupt, an abandon) told to the listener, a hand-back that is no crash,
 * renewal per attempt by the database's clock, which lanes are claimable, claims serialised by the
 * lane's lock. Instances are owner names on one database; time passing is a lease written expired,
 * a race is a transaction held at its exact step.
 */
@ParameterizedClass
@EnumSource(FreshDatabase.Kind.class)
class LaneOnDatabaseTest {

    private static final Map<FreshDatabase.Kind, LaneOnDatabase> LANES = new EnumMap<>(FreshDatabase.Kind.class);
    private static final Duration PATIENCE = Duration.ofSeconds(30);

    private final LaneOnDatabase lane;

    LaneOnDatabaseTest(FreshDatabase.Kind database) {
        synchronized (LANES) {
            lane = LANES.computeIfAbsent(database, d -> new LaneOnDatabase(d, "switchboard_lane_inprocess", 3));
        }
    }

    private static Claim claimed(ClaimResult result) {
        assertTrue(result.claim().isPresent(), "a run was claimed");
        return result.claim().get();
    }

    @Test
    void aLaneIsHeldByOneOwnerAtATime() {
        long thread = lane.thread();
        List<String> runs = lane.enqueue(thread, "one", "two");
        Claim a = claimed(lane.claim(thread, "a"));
        assertEquals(runs.get(0), a.runId());
        assertTrue(lane.claim(thread, "b").claim().isEmpty(), "another owner finds the lane busy");
        Claim again = claimed(lane.claim(thread, "a"));
        assertEquals(a.key(), again.key(), "its owner adopts the attempt it holds, never a second one");
        assertEquals("executing/-", lane.state(runs.get(0)));
        assertEquals("queued/-", lane.state(runs.get(1)), "the run behind the head waits");
    }

    @Test
    void runsOfALaneExecuteInTheOrderTheyCameOneAfterAnother() {
        long thread = lane.thread();
        List<String> runs = lane.enqueue(thread, "one", "two", "three");
        Claim claim = claimed(lane.claim(thread, "a"));
        for (int i = 0; i < runs.size(); i++) {
            assertEquals(runs.get(i), claim.runId(), "run " + (i + 1) + " is the head when the one before it ends");
            LaneStore.FinishResult finished = lane.finish(claim, "a", "{\"type\":\"message\",\"text\":\"" + i + "\"}", true);
            assertFalse(finished.fenced());
            assertEquals("succeeded/-", lane.state(runs.get(i)));
            if (i + 1 < runs.size()) {
                claim = claimed(finished.next());
            } else {
                assertTrue(finished.next().claim().isEmpty());
            }
        }
        assertNull(lane.leaseOwner(thread), "the lane is free once its last run ended");
    }

    @Test
    void aFinishIsRecordedOnlyForTheAttemptAndOwnerThatHoldTheLeaseAndARetryAdoptsWhatItClaimed() {
        long thread = lane.thread();
        List<String> runs = lane.enqueue(thread, "first", "second", "third");
        Claim a = claimed(lane.claim(thread, "owner-a"));
        for (Claim stale : List.of(withAttempt(a, a.attempt() - 1), withAttempt(a, a.attempt() + 1))) {
            assertTrue(lane.finish(stale, "owner-a", "{}", false).fenced(), "another attempt's result");
        }
        assertTrue(lane.finish(a, "owner-b", "{}", false).fenced(), "another owner's result");
        assertEquals("executing/-", lane.state(runs.get(0)));

        LaneStore.FinishResult done = lane.finish(a, "owner-a", "{\"type\":\"message\",\"text\":\"first\"}", true);
        Claim next = claimed(done.next());
        assertEquals(runs.get(1), next.runId());
        // The same finish again, as a retry whose commit was never learned: fenced, and it adopts what the first try claimed.
        LaneStore.FinishResult retried = lane.finish(a, "owner-a", "{}", true);
        assertTrue(retried.fenced());
        assertEquals(next.key(), claimed(retried.next()).key());
        assertTrue(lane.finish(a, "owner-b", "{}", true).next().claim().isEmpty(), "a stranger adopts nothing");

        LaneStore.FinishResult failed = lane.tx.inTransaction(() -> lane.ledger.finish(next, "owner-a", null, "engine exploded", true));
        assertFalse(failed.fenced());
        assertEquals("failed/-", lane.state(runs.get(1)));
        assertEquals(runs.get(2), claimed(failed.next()).runId(), "a failure moves the lane on as a success does");
    }

    @Test
    void aFinishedRunIsForgottenWholeAndAnUnfinishedOneKept() {
        long thread = lane.thread();
        List<String> runs = lane.enqueue(thread, "one", "two", "three");
        Claim one = claimed(lane.claim(thread, "a"));
        Claim two = claimed(lane.finish(one, "a", "{}", true).next());
        assertEquals(Set.of(runs.get(0)), lane.tx.inTransaction(() -> lane.lanes.ended(runs)),
                "the finished one has ended, the executing and the queued one not");
        assertEquals(1, (int) lane.tx.inTransaction(() -> lane.finished.forget(runs)), "only the finished run goes");
        assertNull(lane.state(runs.get(0)));
        assertEquals("executing/-", lane.state(two.runId()));
        assertEquals("queued/-", lane.state(runs.get(2)));
        assertEquals(runs.get(2), claimed(lane.finish(two, "a", "{}", true).next()).runId(), "the lane goes on");
    }

    @Test
    void aRunsContentIsBlankedAndItsLifecycleKept() {
        long thread = lane.thread();
        String run = lane.enqueue(thread, "a secret").get(0);
        lane.finish(claimed(lane.claim(thread, "a")), "a", "{\"text\":\"the answer\"}", false);
        assertEquals("a secret|{\"text\":\"the answer\"}", lane.content(run));
        lane.tx.inTransaction(() -> {
            lane.finished.blankContent(run);
            return null;
        });
        assertEquals("|-", lane.content(run), "its input (the payload's blanking) and output gone");
        assertEquals("succeeded/-", lane.state(run));
    }

    private static Claim withAttempt(Claim c, int attempt) {
        return c.withAttempt(attempt);
    }

    @Test
    void aLostLeaseIsTakenOverAndTheLateOwnersResultFencedOut() {
        long thread = lane.thread();
        String run = lane.enqueue(thread, "one").get(0);
        Claim first = claimed(lane.claim(thread, "a"));
        lane.expireLease(thread); // "a" stopped renewing: a crash, or a pause longer than the lease
        Claim second = claimed(lane.claim(thread, "b"));
        assertEquals(run, second.runId());
        assertEquals(first.attempt() + 1, second.attempt(), "the run runs again as a new attempt");

        LaneStore.FinishResult late = lane.finish(first, "a", "{\"type\":\"message\",\"text\":\"late\"}", false);
        assertTrue(late.fenced(), "the late owner's result is refused");
        assertEquals("executing/-", lane.state(run), "and changes nothing");
        assertEquals("b", lane.leaseOwner(thread));

        assertFalse(lane.finish(second, "b", "{\"type\":\"message\",\"text\":\"b\"}", false).fenced());
        assertEquals("succeeded/-", lane.state(run));
    }

    @Test
    void aCrashedInstancesQueuedRunsAreFinishedInTheirOrderByItsNextStart() {
        List<Long> threads = List.of(lane.thread(), lane.thread(), lane.thread());
        List<List<String>> runs = threads.stream().map(t -> lane.enqueue(t, "1", "2", "3", "4")).toList();
        for (long thread : threads) {
            claimed(lane.claim(thread, "b-first-start"));
            lane.expireLease(thread); // killed while executing each lane's head
        }
        for (int t = 0; t < threads.size(); t++) {
            Claim claim = claimed(lane.claim(threads.get(t), "b-second-start"));
            for (String run : runs.get(t)) {
                assertEquals(run, claim.runId(), "FIFO after the restart");
                LaneStore.FinishResult finished = lane.finish(claim, "b-second-start", "{\"type\":\"message\"}", true);
                assertFalse(finished.fenced());
                claim = finished.next().claim().orElse(null);
            }
            assertNull(claim);
            assertEquals("2/1", lane.attempts(runs.get(t).get(0)), "the head ran again once, its crash counted");
            for (String run : runs.get(t)) {
                assertEquals("succeeded/-", lane.state(run));
            }
        }
    }

    @Test
    void aRunWhoseAttemptsAllCrashedIsAbandonedThroughTheSameEnd() {
        long thread = lane.thread();
        List<String> runs = lane.enqueue(thread, "one", "two");
        for (String owner : List.of("a", "b", "c")) {
            claimed(lane.claim(thread, owner));
            lane.expireLease(thread);
        }
        Claim next = claimed(lane.claim(thread, "d"));
        assertEquals("failed/abandoned", lane.state(runs.get(0)));
        assertTrue(lane.told.contains("ended " + runs.get(0) + " failed abandoned"), lane.told.toString());
        assertEquals(runs.get(1), next.runId(), "the lane goes on with the run behind it");
    }

    @Test
    void aCancelEndsEveryUnfinishedRunFreesTheLaneAndIsToldLikeAnyEnd() {
        long thread = lane.thread();
        List<String> runs = lane.enqueue(thread, "one", "two");
        Claim claim = claimed(lane.claim(thread, "a"));
        List<String> cancelled = lane.tx.inTransaction(() -> lane.ledger.cancel(thread));
        assertEquals(runs, cancelled);
        for (String run : runs) {
            assertEquals("failed/cancelled", lane.state(run));
            assertTrue(lane.told.contains("ended " + run + " failed cancelled"), lane.told.toString());
        }
        assertNull(lane.leaseOwner(thread));
        assertTrue(lane.finish(claim, "a", "{\"type\":\"message\",\"text\":\"late\"}", false).fenced(),
                "the cancelled attempt's result is fenced out");
    }

    @Test
    void anInterruptThroughTheLanesApiReleasesTheLeaseAndTheNextRunGoesOn() {
        long thread = lane.thread();
        List<String> runs = lane.enqueue(thread, "one", "two");
        claimed(lane.claim(thread, "a"));
        Lanes.Ended ended = lane.tx.inTransaction(() -> lane.lanes.end(lane.lanes.lock(thread), List.of(runs.get(0)),
                RunEnd.failed("interrupted", "stop")));
        assertEquals(List.of(runs.get(0)), ended.runs().stream().map(LaneRun::runId).toList());
        assertNull(ended.lane().leaseOwner(), "the interrupted run held the lease and let it go");
        assertEquals("failed/interrupted", lane.state(runs.get(0)));
        assertTrue(lane.told.contains("ended " + runs.get(0) + " failed interrupted"), lane.told.toString());
        assertEquals(runs.get(1), claimed(lane.claim(thread, "b")).runId());
    }

    @Test
    void aHandedBackRunIsQueuedAgainWithoutCountingACrash() {
        long thread = lane.thread();
        String run = lane.enqueue(thread, "one").get(0);
        Claim first = claimed(lane.claim(thread, "a"));
        assertTrue(lane.tx.inTransaction(() -> lane.ledger.handBack(thread, "a")));
        assertEquals("queued/-", lane.state(run));
        Claim second = claimed(lane.claim(thread, "b"));
        assertEquals(first.attempt() + 1, second.attempt());
        assertTrue(lane.finish(first, "a", "{}", false).fenced());
    }

    @Test
    void abandoningTheOnlyRunLeavesTheLaneFreeAndNothingToDrive() {
        long thread = lane.thread();
        String only = lane.enqueue(thread, "only").get(0);
        for (int attempt = 1; attempt <= 3; attempt++) {
            assertEquals(attempt, claimed(lane.claim(thread, "crashing")).attempt());
            lane.expireLease(thread);
        }
        ClaimResult result = lane.claim(thread, "rescuer");
        assertTrue(result.claim().isEmpty());
        assertEquals(List.of(only), result.abandonedRunIds());
        assertNull(lane.leaseOwner(thread));
        assertFalse(claimable().contains(thread), "nothing left to drive");
    }

    @Test
    void theLanesNobodyHoldsAreToldForMoreThreadsThanOneStatementAsksAbout() {
        long held = lane.thread();
        lane.enqueue(held, "executing");
        claimed(lane.claim(held, "owner"));
        List<Long> threads = new ArrayList<>(List.of(held));
        threads.addAll(lane.threads(Statements.IN_LIST + 5));
        List<Long> unleased = lane.tx.inTransaction(() -> lane.lanes.unleased(threads));
        assertEquals(threads.subList(1, threads.size()), unleased, "every lane but the held one, in order");
    }

    @Test
    void claimableLanesAreThoseWithQueuedWorkAndNoLiveLeaseOrAnExpiredOne() {
        long free = lane.thread();
        lane.enqueue(free, "waiting");
        long expired = lane.thread();
        lane.enqueue(expired, "crashed", "waiting behind it");
        claimed(lane.claim(expired, "dead-owner"));
        lane.expireLease(expired);
        long expiredExecutingOnly = lane.thread();
        lane.enqueue(expiredExecutingOnly, "crashed, nothing queued");
        claimed(lane.claim(expiredExecutingOnly, "dead-owner"));
        lane.expireLease(expiredExecutingOnly);
        long live = lane.thread();
        lane.enqueue(live, "executing", "queued behind a live lease");
        claimed(lane.claim(live, "live-owner"));
        long empty = lane.thread();
        long finished = lane.thread();
        lane.enqueue(finished, "done");
        assertTrue(lane.finish(claimed(lane.claim(finished, "owner")), "owner", "{}", true).next().claim().isEmpty());

        List<Long> claimable = claimable();
        assertTrue(claimable.containsAll(List.of(free, expired, expiredExecutingOnly)), claimable.toString());
        assertFalse(claimable.contains(live), "live lease: " + claimable);
        assertFalse(claimable.contains(empty), "no runs: " + claimable);
        assertFalse(claimable.contains(finished), "only finished runs: " + claimable);
        assertEquals(claimable.size(), new HashSet<>(claimable).size(), "no duplicates: " + claimable);
    }

    @Test
    void handBacksDoNotUseUpTheCrashAllowance() {
        long thread = lane.thread();
        String run = lane.enqueue(thread, "survives restarts").get(0);
        for (int attempt = 1; attempt <= 2; attempt++) {
            String owner = "restarting-" + attempt;
            assertEquals(attempt, claimed(lane.claim(thread, owner)).attempt());
            assertFalse(lane.tx.inTransaction(() -> lane.ledger.handBack(thread, "someone-else")),
                    "only the lease owner hands a lane back");
            assertTrue(lane.tx.inTransaction(() -> lane.ledger.handBack(thread, owner)));
        }
        for (int crash = 1; crash <= 2; crash++) {
            claimed(lane.claim(thread, "crashing-" + crash));
            lane.expireLease(thread);
        }
        Claim survivor = claimed(lane.claim(thread, "survivor"));
        assertEquals(5, survivor.attempt(), "two hand-backs and two crashes: the run goes on");
        assertEquals("5/2", lane.attempts(run));
        lane.expireLease(thread);
        assertEquals(List.of(run), lane.claim(thread, "late").abandonedRunIds(), "the third crash reaches max-attempts");
    }

    @Test
    void renewalIsPerAttemptByTheDatabasesClockAndNeverRevivesAnExpiredLease() {
        long thread = lane.thread();
        lane.enqueue(thread, "long running");
        Claim claim = claimed(lane.claim(thread, "owner"));
        assertEquals(Set.of(), renew("intruder", List.of(claim.key())).held(), "only the owner renews");

        LaneStore.Renewal renewed = renew("owner", List.of(claim.key()));
        assertEquals(Set.of(claim.key()), renewed.held());
        assertEquals(Set.of(), renewed.orphanedThreads());
        assertTrue(lane.leaseLeftMs(thread) > lane.settings.leaseMs() / 2, "extended by the database's clock");

        LaneStore.Renewal otherAttempt = renew("owner", List.of(new RunAttempt(claim.runId(), claim.attempt() + 1)));
        assertEquals(Set.of(), otherAttempt.held(), "a lease is the attempt's, not the run's");
        assertEquals(Set.of(thread), otherAttempt.orphanedThreads(), "a live lease held for nothing executing");

        lane.expireLease(thread);
        assertEquals(Set.of(), renew("owner", List.of(claim.key())).held(), "an expired lease is lost, not renewed");
        assertTrue(lane.leaseLeftMs(thread) < 0, "still expired: a claim may take the lane");
    }

    private List<Long> claimable() {
        return lane.tx.inTransaction(() -> lane.ledger.claimableThreads(1_000));
    }

    private LaneStore.Renewal renew(String owner, List<RunAttempt> executing) {
        return lane.tx.inTransaction(() -> lane.ledger.renew(owner, executing));
    }

    /**
     * Two instances claim one lane at the same moment: the second's claim waits on the lane's lock
     * while the first's transaction holds it (held there by the test), and then finds the lane taken.
     */
    @Test
    void claimsRacingForOneLaneAreSerialisedByItsLock() throws Exception {
        long thread = lane.thread();
        String run = lane.enqueue(thread, "one").get(0);
        CountDownLatch claimedInside = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        ExecutorService instances = Executors.newFixedThreadPool(2);
        try {
            Future<ClaimResult> first = instances.submit(() -> lane.tx.inTransaction(() -> {
                ClaimResult claim = lane.ledger.claim(thread, "a");
                claimedInside.countDown();
                try {
                    assertTrue(release.await(PATIENCE.toSeconds(), TimeUnit.SECONDS));
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
                return claim;
            }));
            assertTrue(claimedInside.await(PATIENCE.toSeconds(), TimeUnit.SECONDS));
            Future<ClaimResult> second = instances.submit(() -> lane.claim(thread, "b"));
            Await.until(PATIENCE, lane::someoneWaitsForALock, "the second claim waiting on the lane's lock");
            assertFalse(second.isDone(), "the second claim waits for the first transaction");
            release.countDown();
            assertEquals(run, claimed(first.get(PATIENCE.toSeconds(), TimeUnit.SECONDS)).runId());
            assertTrue(second.get(PATIENCE.toSeconds(), TimeUnit.SECONDS).claim().isEmpty(),
                    "once it may look, the lane is taken");
        } finally {
            release.countDown();
            instances.shutdownNow();
        }
    }
}
