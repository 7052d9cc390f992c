package dev.switchboard.core.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.switchboard.core.lane.Claim;
import dev.switchboard.core.lane.LaneLedger;
import dev.switchboard.core.lane.ClaimResult;
import dev.switchboard.core.lane.LaneStore.FinishResult;
import dev.switchboard.core.lane.LaneStore.Renewal;
import dev.switchboard.core.lane.RunAttempt;
import dev.switchboard.core.thread.ThreadLedger;
import dev.switchboard.core.lane.LaneSettings;
import dev.switchboard.core.run.IngestOutcome;
import dev.switchboard.core.run.MessageCommand;
import dev.switchboard.core.run.RunLedger;
import dev.switchboard.persistence.run.RunRecord;
import dev.switchboard.persistence.run.RunState;
import dev.switchboard.persistence.thread.ThreadRecord;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The lane ledger on a real Liberty and PostgreSQL: claims, leases, fencing, recovery and abandonment.
 *
 * <p>Runs are stored through {@link RunLedger} directly, which (unlike {@code RunService}) does not
 * wake the lane controller; the test server lets the controller poll only once, at start-up. So
 * every claim below is made by the test itself.
 */
@ExtendWith(ArquillianExtension.class)
class LaneLedgerIT {

    private static final String SOURCE = "arquillian";

    @Deployment
    static WebArchive deployment() {
        return ArqDeployment.create();
    }

    @Inject
    LaneLedger lanes;

    @Inject
    RunLedger runs;

    @Inject
    ThreadLedger threads;

    @Inject
    LaneSettings settings;

    @Inject
    LaneProbe probe;

    private String user;

    @BeforeEach
    void cleanSlate() {
        probe.clear();
        user = "user-" + UUID.randomUUID();
    }

    @Test
    void claimIsExclusiveFencedAndChainsTheLaneInThreadOrder() {
        long thread = newThread("fencing");
        String first = ingest(thread, "first");
        String second = ingest(thread, "second");
        String third = ingest(thread, "third");
        assertEquals(List.of(1L, 2L, 3L), probe.runsOf(thread).stream().map(RunRecord::getThreadSeq).toList());

        long beforeClaim = probe.dbNow();
        ClaimResult claimedByA = lanes.claim(thread, "owner-a");
        long afterClaim = probe.dbNow();
        Claim a = claimedByA.claim().orElseThrow(() -> new AssertionError("a free lane must be claimed"));
        assertEquals(List.of(), claimedByA.abandonedRunIds());
        assertEquals(first, a.runId(), "the lane head is the oldest run");
        assertEquals(thread, a.threadId());
        assertEquals(1, a.attempt());
        assertEquals("first", a.inputText());
        assertEquals(user, a.userKey());
        assertExecuting(first, 1, "owner-a");
        ThreadRecord leased = thread(thread);
        assertEquals("owner-a", leased.getLeaseOwner());
        assertEquals(first, leased.getLeaseRunId());
        // By the database's clock: this server's own clock runs 90 s ahead (src/test/liberty/server.xml),
        // which run times show, and lease times must not.
        assertTrue(leased.getLeaseUntil() >= beforeClaim + settings.leaseMs()
                && leased.getLeaseUntil() <= afterClaim + settings.leaseMs(),
                "lease runs for lease-ms from the database's now: " + leased.getLeaseUntil() + " vs " + beforeClaim);
        assertEquals(1, leased.getLeaseAttempt(), "the lease names the attempt");

        ClaimResult claimedByB = lanes.claim(thread, "owner-b");
        assertTrue(claimedByB.claim().isEmpty(), "a live lease keeps everyone else out (BUSY)");
        assertEquals(List.of(), claimedByB.abandonedRunIds());
        assertLease(thread, "owner-a", first);
        assertExecuting(first, 1, "owner-a");
        assertEquals(RunState.QUEUED, run(second).getState());

        // Fenced: a stale attempt, a future attempt, a foreign owner. Nothing may be written.
        assertFenced(lanes.finish(withAttempt(a, 0), "owner-a", output("stale"), null, false));
        assertFenced(lanes.finish(withAttempt(a, 2), "owner-a", output("future"), null, false));
        assertFenced(lanes.finish(a, "owner-b", output("foreign"), null, false));
        assertFenced(lanes.finish(a, "owner-b", null, "foreign failure", false));
        RunRecord untouched = assertExecuting(first, 1, "owner-a");
        assertNull(untouched.getOutputJson());
        assertNull(untouched.getErrorMessage());
        assertNull(untouched.getFinishedAt());
        assertLease(thread, "owner-a", first);
        assertEquals(RunState.QUEUED, run(second).getState());

        // The right fence: the run succeeds and the next run is claimed in the same transaction.
        FinishResult done = lanes.finish(a, "owner-a", output("first"), null, true);
        assertFalse(done.fenced());
        Claim next = done.next().claim().orElseThrow(() -> new AssertionError("the next queued run is chained"));
        assertEquals(second, next.runId(), "thread_seq order");
        assertEquals(1, next.attempt());
        RunRecord succeeded = run(first);
        assertEquals(RunState.SUCCEEDED, succeeded.getState());
        assertEquals(output("first"), succeeded.getOutputJson());
        assertNotNull(succeeded.getFinishedAt());
        assertExecuting(second, 1, "owner-a");
        assertLease(thread, "owner-a", second);
        assertEquals(RunState.QUEUED, run(third).getState());
        assertEquals(0, run(third).getAttempt());

        // The same attempt again is fenced: the result is recorded exactly once.
        assertFenced(lanes.finish(a, "owner-a", output("again"), null, false));
        assertEquals(output("first"), run(first).getOutputJson());
        assertExecuting(second, 1, "owner-a");

        // A retried finish (its first commit's outcome never arrived) is fenced, and adopts the run
        // that first commit chained, unchanged: nothing it committed is stranded.
        FinishResult retried = lanes.finish(a, "owner-a", output("again"), null, true);
        assertTrue(retried.fenced());
        Claim adopted = retried.next().claim().orElseThrow(() -> new AssertionError("the chained run is adopted"));
        assertEquals(next.key(), adopted.key());
        assertTrue(adopted.leaseLeftMs() > 0 && adopted.leaseLeftMs() <= settings.leaseMs(), "what is left of the lease");
        assertExecuting(second, 1, "owner-a");
        assertTrue(lanes.finish(a, "owner-b", output("foreign"), null, true).next().claim().isEmpty(),
                "another owner adopts nothing: the lease is live and not its own");

        FinishResult failed = lanes.finish(next, "owner-a", null, "engine exploded", true);
        assertFalse(failed.fenced());
        RunRecord failedRun = run(second);
        assertEquals(RunState.FAILED, failedRun.getState());
        assertEquals("engine exploded", failedRun.getErrorMessage());
        assertNull(failedRun.getOutputJson());
        Claim last = failed.next().claim().orElseThrow(() -> new AssertionError("a failure also chains the lane"));
        assertEquals(third, last.runId());

        FinishResult drained = lanes.finish(last, "owner-a", output("third"), null, true);
        assertFalse(drained.fenced());
        assertTrue(drained.next().claim().isEmpty(), "the lane is empty");
        assertEquals(RunState.SUCCEEDED, run(third).getState());
        assertNoLease(thread);
    }

    @Test
    void anExpiredLeaseIsRecoveredAndTheDeadOwnersResultIsFenced() {
        long thread = newThread("recovery");
        String first = ingest(thread, "first");
        String second = ingest(thread, "second");

        Claim dead = lanes.claim(thread, "dead-owner").claim().orElseThrow();
        assertEquals(1, dead.attempt());
        assertTrue(lanes.claim(thread, "live-owner").claim().isEmpty(), "not before the lease expires");

        assertEquals(1, probe.expireLease(thread));
        ClaimResult recovered = lanes.claim(thread, "live-owner");
        assertEquals(List.of(), recovered.abandonedRunIds(), "attempt 1 of 3 is retried, not abandoned");
        Claim live = recovered.claim().orElseThrow(() -> new AssertionError("an expired lease is claimable"));
        assertEquals(first, live.runId(), "the interrupted run is re-executed before anything behind it");
        assertEquals(2, live.attempt());
        assertExecuting(first, 2, "live-owner");
        assertLease(thread, "live-owner", first);
        assertTrue(thread(thread).getLeaseUntil() > probe.dbNow(), "a fresh lease");
        assertEquals(1, run(first).getCrashes(), "the expired attempt counts as a crash");
        assertTrue(lanes.claim(thread, "dead-owner").claim().isEmpty(), "the new lease is live");

        // The dead owner wakes up and reports: discarded, whether with its own fence or the new one.
        assertFenced(lanes.finish(dead, "dead-owner", output("late"), null, false));
        assertFenced(lanes.finish(dead, "dead-owner", null, "late failure", false));
        assertFenced(lanes.finish(withAttempt(dead, 2), "dead-owner", output("late"), null, false));
        assertFenced(lanes.finish(dead, "live-owner", output("old attempt"), null, false));
        RunRecord stillRunning = assertExecuting(first, 2, "live-owner");
        assertNull(stillRunning.getOutputJson());
        assertNull(stillRunning.getFinishedAt());
        assertLease(thread, "live-owner", first);

        FinishResult done = lanes.finish(live, "live-owner", output("recovered"), null, true);
        assertFalse(done.fenced());
        assertEquals(second, done.next().claim().orElseThrow().runId());
        assertEquals(RunState.SUCCEEDED, run(first).getState());
        assertEquals(output("recovered"), run(first).getOutputJson());
        assertEquals(2, run(first).getAttempt());

        // Exactly once: neither owner can record the run again.
        assertFenced(lanes.finish(live, "live-owner", output("twice"), null, false));
        assertFenced(lanes.finish(dead, "dead-owner", output("late"), null, false));
        assertEquals(output("recovered"), run(first).getOutputJson());
        assertExecuting(second, 1, "live-owner");
    }

    @Test
    void aRunWhoseLastAllowedAttemptCrashedIsAbandonedAndTheLaneMovesOn() {
        int maxAttempts = settings.maxAttempts();
        assertEquals(3, maxAttempts, "configured in src/test/liberty/server.xml");
        long thread = newThread("abandon");
        String doomed = ingest(thread, "doomed");
        String next = ingest(thread, "next");

        List<Claim> crashed = new ArrayList<>();
        for (int attempt = 1; attempt <= maxAttempts; attempt++) {
            ClaimResult result = lanes.claim(thread, "crashing-" + attempt);
            assertEquals(List.of(), result.abandonedRunIds(), "attempt " + attempt + " is still allowed");
            Claim claim = result.claim().orElseThrow();
            assertEquals(doomed, claim.runId());
            assertEquals(attempt, claim.attempt());
            crashed.add(claim);
            assertEquals(1, probe.expireLease(thread));
        }

        ClaimResult rescue = lanes.claim(thread, "rescuer");
        assertEquals(List.of(doomed), rescue.abandonedRunIds());
        RunRecord abandoned = run(doomed);
        assertEquals(RunState.FAILED, abandoned.getState());
        assertEquals(maxAttempts, abandoned.getAttempt());
        assertEquals("run abandoned after " + maxAttempts + " crashed attempts: the instance executing it stopped "
                + "renewing its lease", abandoned.getErrorMessage());
        assertNotNull(abandoned.getFinishedAt());

        Claim rescued = rescue.claim().orElseThrow(() -> new AssertionError("the following run is claimed"));
        assertEquals(next, rescued.runId());
        assertEquals(1, rescued.attempt());
        assertExecuting(next, 1, "rescuer");
        assertLease(thread, "rescuer", next);

        // The crashed owners' late results change nothing.
        for (Claim claim : crashed) {
            assertFenced(lanes.finish(claim, "crashing-" + claim.attempt(), output("too late"), null, false));
        }
        assertEquals(RunState.FAILED, run(doomed).getState());
        assertNull(run(doomed).getOutputJson());
        assertExecuting(next, 1, "rescuer");
    }

    @Test
    void abandoningTheOnlyRunLeavesTheLaneFree() {
        long thread = newThread("abandon-last");
        String only = ingest(thread, "only");
        for (int attempt = 1; attempt <= settings.maxAttempts(); attempt++) {
            assertEquals(attempt, lanes.claim(thread, "crashing").claim().orElseThrow().attempt());
            assertEquals(1, probe.expireLease(thread));
        }

        ClaimResult result = lanes.claim(thread, "rescuer");
        assertTrue(result.claim().isEmpty());
        assertEquals(List.of(only), result.abandonedRunIds());
        assertEquals(RunState.FAILED, run(only).getState());
        assertNoLease(thread);
        assertFalse(lanes.claimableThreads(100).contains(thread), "nothing left to drive");
    }

    @Test
    void claimableThreadsAreThoseWithQueuedWorkAndNoLiveLease() {
        long free = newThread("free");
        ingest(free, "waiting");

        long expired = newThread("expired");
        ingest(expired, "crashed");
        ingest(expired, "waiting behind it");
        lanes.claim(expired, "dead-owner").claim().orElseThrow();
        assertEquals(1, probe.expireLease(expired));

        long expiredExecutingOnly = newThread("expired-executing-only");
        ingest(expiredExecutingOnly, "crashed, nothing queued");
        lanes.claim(expiredExecutingOnly, "dead-owner").claim().orElseThrow();
        assertEquals(1, probe.expireLease(expiredExecutingOnly));

        long live = newThread("live");
        ingest(live, "executing");
        ingest(live, "queued behind a live lease");
        lanes.claim(live, "live-owner").claim().orElseThrow();

        long empty = newThread("empty");

        long finished = newThread("finished");
        ingest(finished, "done");
        Claim done = lanes.claim(finished, "owner").claim().orElseThrow();
        assertTrue(lanes.finish(done, "owner", output("done"), null, true).next().claim().isEmpty());

        List<Long> claimable = lanes.claimableThreads(100);
        assertTrue(claimable.contains(free), "queued work, no lease: " + claimable);
        assertTrue(claimable.contains(expired), "queued work, expired lease: " + claimable);
        assertTrue(claimable.contains(expiredExecutingOnly), "expired lease over an executing run: " + claimable);
        assertFalse(claimable.contains(live), "live lease: " + claimable);
        assertFalse(claimable.contains(empty), "no runs: " + claimable);
        assertFalse(claimable.contains(finished), "only finished runs: " + claimable);
        assertEquals(3, claimable.size(), "no duplicates, nothing else: " + claimable);
    }

    @Test
    void handBackQueuesTheExecutingRunAgainAndClearsTheLease() {
        long thread = newThread("release");
        String first = ingest(thread, "first");
        ingest(thread, "second");
        Claim claim = lanes.claim(thread, "stopping-owner").claim().orElseThrow();

        assertFalse(lanes.handBack(thread, "someone-else"), "only the lease owner may hand a lane back");
        assertExecuting(first, 1, "stopping-owner");

        assertTrue(lanes.handBack(thread, "stopping-owner"));
        RunRecord handedBack = run(first);
        assertEquals(RunState.QUEUED, handedBack.getState());
        assertNull(handedBack.getClaimedBy());
        assertEquals(1, handedBack.getAttempt());
        assertEquals(0, handedBack.getCrashes(), "a hand-back is not a crash");
        assertNoLease(thread);
        assertTrue(lanes.claimableThreads(100).contains(thread));
        assertFalse(lanes.handBack(thread, "stopping-owner"), "handed back once");

        Claim again = lanes.claim(thread, "next-owner").claim().orElseThrow();
        assertEquals(first, again.runId(), "the handed-back run stays at the head of its lane");
        assertEquals(2, again.attempt());
        assertFenced(lanes.finish(claim, "stopping-owner", output("late"), null, false));
        assertFalse(lanes.finish(again, "next-owner", output("first"), null, true).fenced());
    }

    @Test
    void handBacksDoNotUseUpTheCrashAllowance() {
        // Two graceful hand-backs (attempts 1 and 2), then crashes: with max-attempts 3 the run is
        // recovered after its first and second crash and abandoned only at the third.
        long thread = newThread("handbacks");
        String run = ingest(thread, "survives restarts");
        for (int attempt = 1; attempt <= 2; attempt++) {
            assertEquals(attempt, lanes.claim(thread, "restarting-" + attempt).claim().orElseThrow().attempt());
            assertTrue(lanes.handBack(thread, "restarting-" + attempt));
        }
        Claim third = lanes.claim(thread, "crashing").claim().orElseThrow();
        assertEquals(3, third.attempt());
        assertEquals(1, probe.expireLease(thread));

        ClaimResult afterCrash = lanes.claim(thread, "survivor");
        assertEquals(List.of(), afterCrash.abandonedRunIds(), "three attempts, one crash: not abandoned");
        Claim fourth = afterCrash.claim().orElseThrow(() -> new AssertionError("the crashed run executes again"));
        assertEquals(4, fourth.attempt());
        assertEquals(1, run(run).getCrashes());

        assertEquals(1, probe.expireLease(thread));
        assertEquals(5, lanes.claim(thread, "survivor-2").claim().orElseThrow().attempt(), "second crash: again");
        assertEquals(1, probe.expireLease(thread));
        ClaimResult thirdCrash = lanes.claim(thread, "survivor-3");
        assertEquals(List.of(run), thirdCrash.abandonedRunIds(), "the third crash reaches max-attempts");
        assertEquals(RunState.FAILED, run(run).getState());
        assertEquals(5, run(run).getAttempt());
    }

    @Test
    void renewalIsPerAttemptByTheDatabasesClockAndNeverRevivesAnExpiredLease() {
        long thread = newThread("renew");
        ingest(thread, "long running");
        Claim claim = lanes.claim(thread, "owner").claim().orElseThrow();

        Renewal intruder = lanes.renew("intruder", List.of(claim.key()));
        assertEquals(Set.of(), intruder.held(), "only the owner renews");

        long beforeRenew = probe.dbNow();
        Renewal renewed = lanes.renew("owner", List.of(claim.key()));
        assertEquals(Set.of(claim.key()), renewed.held());
        assertEquals(Set.of(), renewed.orphanedThreads());
        assertTrue(thread(thread).getLeaseUntil() >= beforeRenew + settings.leaseMs(), "extended by the database's clock");

        Renewal otherAttempt = lanes.renew("owner", List.of(new RunAttempt(claim.runId(), 2)));
        assertEquals(Set.of(), otherAttempt.held(), "a lease is the attempt's, not the run's");
        assertEquals(Set.of(thread), otherAttempt.orphanedThreads(), "a live lease held for nothing executing");

        assertEquals(1, probe.expireLease(thread));
        Renewal late = lanes.renew("owner", List.of(claim.key()));
        assertEquals(Set.of(), late.held(), "an expired lease is lost, not renewed");
        assertTrue(thread(thread).getLeaseUntil() < probe.dbNow(), "still expired: a claim may take the lane");
        assertEquals(Set.of(), lanes.renew("owner", List.of()).held());
    }

    // ---------------------------------------------------------------- helpers

    private long newThread(String name) {
        return threads.ensure(user, name + "-" + UUID.randomUUID(), System.currentTimeMillis());
    }

    private String ingest(long threadId, String text) {
        ThreadRecord thread = thread(threadId);
        IngestOutcome outcome = runs.ingest(new MessageCommand(user, SOURCE, thread.getThreadKey(), null, text,
                "followUp", null), threadId, null);
        assertFalse(outcome.deduplicated());
        assertEquals("queued", outcome.run().state());
        return outcome.run().runId();
    }

    private RunRecord run(String runId) {
        RunRecord run = probe.run(runId);
        assertNotNull(run, "run " + runId + " exists");
        return run;
    }

    private ThreadRecord thread(long threadId) {
        ThreadRecord thread = probe.thread(threadId);
        assertNotNull(thread, "thread " + threadId + " exists");
        return thread;
    }

    private RunRecord assertExecuting(String runId, int attempt, String owner) {
        RunRecord run = run(runId);
        assertEquals(RunState.EXECUTING, run.getState(), "state of " + runId);
        assertEquals(attempt, run.getAttempt(), "attempt of " + runId);
        assertEquals(owner, run.getClaimedBy(), "claimed_by of " + runId);
        return run;
    }

    private void assertLease(long threadId, String owner, String runId) {
        ThreadRecord thread = thread(threadId);
        assertEquals(owner, thread.getLeaseOwner(), "lease owner");
        assertEquals(runId, thread.getLeaseRunId(), "leased run");
        assertNotNull(thread.getLeaseUntil(), "lease expiry");
    }

    private void assertNoLease(long threadId) {
        ThreadRecord thread = thread(threadId);
        assertNull(thread.getLeaseOwner(), "lease owner");
        assertNull(thread.getLeaseUntil(), "lease expiry");
        assertNull(thread.getLeaseRunId(), "leased run");
    }

    /** For finishes without chaining: fenced, and nothing claimed. */
    private static void assertFenced(FinishResult result) {
        assertTrue(result.fenced(), "finish must be fenced");
        assertTrue(result.next().claim().isEmpty(), "an unchained finish claims nothing");
        assertEquals(List.of(), result.next().abandonedRunIds());
    }

    private static Claim withAttempt(Claim claim, int attempt) {
        return new Claim(claim.runId(), claim.threadId(), attempt, claim.userKey(), claim.threadKey(),
                claim.inputText(), claim.deliveryMode(), claim.leaseLeftMs(), claim.turnId(), claim.source(), claim.kind(), claim.runtime(),
                claim.waitedMs());
    }

    private static String output(String text) {
        return "{\"type\":\"message\",\"text\":\"" + text + "\"}";
    }
}
