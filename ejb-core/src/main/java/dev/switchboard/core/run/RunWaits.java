package dev.switchboard.core.run;

import dev.switchboard.core.lane.RunWatch;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The clients waiting for runs to end ({@code /wait}, a non-streamed response), woken as the run
 * ends, however many wait: a run that ends on this instance wakes its waiters at once (the lane
 * tells its watch); one that ends on another is found by one sweep every {@link #SWEEP_MS} that
 * asks the store which of all the waited-for runs have ended — one statement per
 * {@link #SWEEP_CHUNK} runs, not one per waiter — and a waiter whose time is up is answered at its
 * deadline by a timer of its own. A change here costs its waiter one read, which answers it when the
 * run ended. Plain: unit tests drive it with a store of their own and a {@link RunWatch}.
 */
public final class RunWaits {

    /** How often runs that ended elsewhere are looked for. */
    static final long SWEEP_MS = 500;
    /** Runs asked about in one statement. */
    static final int SWEEP_CHUNK = 500;

    private static final Logger LOG = Logger.getLogger(RunWaits.class.getName());

    /** What the waits read: a run as its user sees it, and which runs have ended. */
    public interface Store {
        Optional<RunView> find(String userKey, String runId);

        Set<String> ended(Collection<String> runIds);
    }

    private static final class Waiting {
        final String userKey;
        final String runId;
        final CompletableFuture<Optional<RunView>> result;
        final AtomicBoolean answered = new AtomicBoolean();
        volatile CompletableFuture<Void> change;
        volatile ScheduledFuture<?> deadline;

        Waiting(String userKey, String runId, CompletableFuture<Optional<RunView>> result) {
            this.userKey = userKey;
            this.runId = runId;
            this.result = result;
        }
    }

    private final Store store;
    private final RunWatch watch;
    private final ScheduledExecutorService executor;
    private final Map<String, Set<Waiting>> byRun = new ConcurrentHashMap<>();

    /** @param executor the threads that read and answer; the sweep runs on them */
    public RunWaits(Store store, RunWatch watch, ScheduledExecutorService executor) {
        this.store = store;
        this.watch = watch;
        this.executor = executor;
        executor.scheduleWithFixedDelay(this::sweep, SWEEP_MS, SWEEP_MS, TimeUnit.MILLISECONDS);
    }

    /**
     * Completes {@code result} with the user's run once it has ended, or as it stands after
     * {@code timeoutMs}; empty when the user has no such run. Read at once on the caller's thread:
     * a run already ended (or none) is answered there.
     */
    public void await(String userKey, String runId, long timeoutMs, CompletableFuture<Optional<RunView>> result) {
        Waiting waiting = new Waiting(userKey, runId, result);
        waiting.change = watch.register(runId); // before the read: an end between the two is not missed
        Optional<RunView> run;
        try {
            run = store.find(userKey, runId);
        } catch (RuntimeException e) {
            watch.forget(runId, waiting.change);
            result.completeExceptionally(e);
            return;
        }
        if (run.isEmpty() || run.get().isTerminal() || timeoutMs <= 0) {
            watch.forget(runId, waiting.change);
            result.complete(run);
            return;
        }
        byRun.computeIfAbsent(runId, id -> ConcurrentHashMap.newKeySet()).add(waiting);
        waiting.deadline = executor.schedule(() -> answer(waiting), timeoutMs, TimeUnit.MILLISECONDS);
        watchOn(waiting, waiting.change);
    }

    /** How many clients wait. */
    public int waiting() {
        return byRun.values().stream().mapToInt(Set::size).sum();
    }

    /** The run changed here: answered with what the one read finds if it ended, else watched on (an attempt handed back, say). */
    private void changed(Waiting waiting) {
        if (waiting.answered.get()) {
            return;
        }
        CompletableFuture<Void> next = watch.register(waiting.runId); // before the look: the next change is not missed
        Optional<RunView> run;
        try {
            run = store.find(waiting.userKey, waiting.runId);
        } catch (RuntimeException e) {
            LOG.log(Level.FINE, "Looking at a waited-for run failed; the sweep looks again", e);
            watchOn(waiting, next);
            return;
        }
        if (run.isEmpty() || run.get().isTerminal()) {
            watch.forget(waiting.runId, next);
            if (claim(waiting)) {
                waiting.result.complete(run);
            }
        } else {
            watchOn(waiting, next);
        }
    }

    private void watchOn(Waiting waiting, CompletableFuture<Void> next) {
        waiting.change = next;
        next.thenRunAsync(() -> changed(waiting), executor);
    }

    /** Reads the waiter's run and answers it, once (its deadline, or the sweep found its run ended). */
    private void answer(Waiting waiting) {
        if (!claim(waiting)) {
            return;
        }
        try {
            waiting.result.complete(store.find(waiting.userKey, waiting.runId));
        } catch (RuntimeException e) {
            waiting.result.completeExceptionally(e);
        }
    }

    /** Takes the waiter out of the waits, its watch and its deadline with it; false when it was answered already. */
    private boolean claim(Waiting waiting) {
        if (!waiting.answered.compareAndSet(false, true)) {
            return false;
        }
        byRun.computeIfPresent(waiting.runId, (id, set) -> {
            set.remove(waiting);
            return set.isEmpty() ? null : set;
        });
        watch.forget(waiting.runId, waiting.change);
        if (waiting.deadline != null) {
            waiting.deadline.cancel(false);
        }
        return true;
    }

    /** Answers the waiters of every waited-for run that ended, on this instance or another. */
    void sweep() {
        List<String> runs = new ArrayList<>(byRun.keySet());
        Set<String> ended = new HashSet<>();
        try {
            for (int i = 0; i < runs.size(); i += SWEEP_CHUNK) {
                ended.addAll(store.ended(runs.subList(i, Math.min(runs.size(), i + SWEEP_CHUNK))));
            }
        } catch (RuntimeException e) { // the next sweep asks again; ends here and deadlines still answer
            LOG.log(Level.WARNING, "Looking for the ends of waited-for runs failed; the next sweep looks again", e);
        }
        for (String runId : ended) {
            Set<Waiting> waiting = byRun.get(runId);
            if (waiting != null) {
                new ArrayList<>(waiting).forEach(this::answer);
            }
        }
    }
}
