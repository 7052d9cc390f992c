package dev.switchboard.core.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.switchboard.core.lane.RunWatch;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Clients waiting for runs (issue 49: under a burst, waiting clients were answered seconds after
 * their runs ended — every waiter re-read its run every half second on two threads, and the reads
 * a run's end needed queued behind them). However many wait: a run that ends here wakes its waiter
 * with one read, the sweep asks about all waited-for runs in one statement per chunk, and a waiter
 * whose time is up is answered at its deadline.
 */
class RunWaitsTest {

    /** Runs by id, ended or not; counts what is asked of it. */
    private static final class FakeStore implements RunWaits.Store {
        final Map<String, Boolean> ended = new ConcurrentHashMap<>();
        final AtomicInteger finds = new AtomicInteger();
        final AtomicInteger endedQueries = new AtomicInteger();
        final List<Integer> endedSizes = new ArrayList<>();

        @Override
        public Optional<RunView> find(String userKey, String runId) {
            finds.incrementAndGet();
            Boolean done = ended.get(runId);
            return done == null || !userKey.equals("u") ? Optional.empty() : Optional.of(view(runId, done));
        }

        @Override
        public synchronized Set<String> ended(Collection<String> runIds) {
            endedQueries.incrementAndGet();
            endedSizes.add(runIds.size());
            return runIds.stream().filter(id -> ended.getOrDefault(id, false)).collect(Collectors.toSet());
        }
    }

    private static RunView view(String runId, boolean ended) {
        return new RunView(runId, ended ? "succeeded" : "running", ended ? "succeeded" : "executing", null, null, null,
                "t", 1, "s", "followUp", 1, 0, 0, 0L, ended ? 1L : null, "turn");
    }

    private final ScheduledExecutorService executor = Executors.newScheduledThreadPool(2);

    @AfterEach
    void stop() {
        executor.shutdownNow();
    }

    private static CompletableFuture<Optional<RunView>> waitFor(RunWaits waits, String runId, long timeoutMs) {
        CompletableFuture<Optional<RunView>> result = new CompletableFuture<>();
        waits.await("u", runId, timeoutMs, result);
        return result;
    }

    @Test
    void aRunThatEndsHereWakesItsWaiterAtOnceBesideTenThousandOthers() throws Exception {
        FakeStore store = new FakeStore();
        RunWatch watch = new RunWatch();
        RunWaits waits = new RunWaits(store, watch, executor);
        for (int i = 0; i < 10_000; i++) {
            store.ended.put("run-" + i, false);
            waitFor(waits, "run-" + i, 60_000);
        }
        store.ended.put("mine", false);
        CompletableFuture<Optional<RunView>> mine = waitFor(waits, "mine", 60_000);
        assertEquals(10_001, waits.waiting());
        int findsBefore = store.finds.get();

        store.ended.put("mine", true);
        watch.changed("mine");
        Optional<RunView> answered = mine.get(10, TimeUnit.SECONDS); // a lost wake-up waits out the minute
        assertTrue(answered.get().isTerminal());
        assertEquals(10_000, waits.waiting());
        assertEquals(1, store.finds.get() - findsBefore, "one read answers it; the others are not read");
    }

    @Test
    void theSweepFindsRunsThatEndedElsewhereWithOneStatementPerChunk() throws Exception {
        FakeStore store = new FakeStore();
        RunWaits waits = new RunWaits(store, new RunWatch(), executor);
        List<CompletableFuture<Optional<RunView>>> results = new ArrayList<>();
        for (int i = 0; i < 1_200; i++) {
            store.ended.put("run-" + i, false);
            results.add(waitFor(waits, "run-" + i, 60_000));
        }
        store.ended.replaceAll((id, done) -> id.equals("run-7") || id.equals("run-1100"));
        results.get(7).get(10, TimeUnit.SECONDS); // found by a sweep: no change here tells of it
        results.get(1100).get(10, TimeUnit.SECONDS);
        assertFalse(results.get(8).isDone());
        synchronized (store) {
            assertEquals(RunWaits.SWEEP_CHUNK, store.endedSizes.stream().mapToInt(Integer::intValue).max().getAsInt(),
                    "a sweep asks about a chunk of runs at a time: " + store.endedSizes);
            assertTrue(store.endedQueries.get() < 1_200 / 10, "statements by the chunk, not by the waiter: "
                    + store.endedQueries.get());
        }
    }

    @Test
    void aWaiterIsAnsweredAtItsDeadlineWithTheRunAsItStandsAndItsWatchIsLetGo() throws Exception {
        FakeStore store = new FakeStore();
        RunWatch watch = new RunWatch();
        RunWaits waits = new RunWaits(store, watch, executor);
        store.ended.put("slow", false);
        Optional<RunView> answered = waitFor(waits, "slow", 50).get(10, TimeUnit.SECONDS);
        assertFalse(answered.get().isTerminal(), "as it stands");
        assertEquals(0, waits.waiting());
        assertEquals(0, watch.watching(), "no watch is left behind");
    }

    @Test
    void aChangeThatIsNoEndKeepsTheWaiterWaitingAndTheNextEndWakesIt() throws Exception {
        FakeStore store = new FakeStore();
        RunWatch watch = new RunWatch();
        RunWaits waits = new RunWaits(store, watch, executor);
        store.ended.put("handed-back", false);
        CompletableFuture<Optional<RunView>> result = waitFor(waits, "handed-back", 60_000);
        watch.changed("handed-back"); // an attempt handed back: queued again, not ended
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (watch.watching() == 0 && System.nanoTime() < until) {
            Thread.onSpinWait(); // the waiter watches on once it has looked
        }
        assertFalse(result.isDone());
        store.ended.put("handed-back", true);
        watch.changed("handed-back");
        assertTrue(result.get(10, TimeUnit.SECONDS).get().isTerminal());
    }

    @Test
    void aRunAlreadyEndedOrNotTheUsersIsAnsweredOnTheCallersThread() {
        FakeStore store = new FakeStore();
        RunWaits waits = new RunWaits(store, new RunWatch(), executor);
        store.ended.put("done", true);
        CompletableFuture<Optional<RunView>> done = new CompletableFuture<>();
        waits.await("u", "done", 60_000, done);
        assertTrue(done.isDone() && done.join().get().isTerminal());
        CompletableFuture<Optional<RunView>> other = new CompletableFuture<>();
        waits.await("someone-else", "done", 60_000, other);
        assertTrue(other.isDone() && other.join().isEmpty());
        assertEquals(0, waits.waiting());
    }
}
