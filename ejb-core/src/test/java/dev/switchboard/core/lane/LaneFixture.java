package dev.switchboard.core.lane;



import static org.junit.jupiter.api.Assertions.fail;

import dev.switchboard.core.metrics.Meters;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.LongFunction;

/**
 * A lane runner and lease keeper over fakes: a store whose answers the test programs, work
 * whose calls the test completes, a clock the test moves, and work run on the calling thread.
 */
final class LaneFixture implements AutoCloseable {

    static final String OWNER = "me";
    static final long LEASE_MS = 2_000;
    static final long MARGIN_MS = 100;

    final AtomicLong nanos = new AtomicLong(1_000_000_000L);
    final FakeStore store = new FakeStore();
    final ManualWork work = new ManualWork();
    final LaneSlots slots;
    final ScheduledExecutorService timers = Executors.newSingleThreadScheduledExecutor();
    final List<String> changed = new CopyOnWriteArrayList<>();
    /** Also told of each changed run, as it is told (the test may look at the slots then). */
    volatile Consumer<String> onChanged = id -> { };
    final LaneRunner runner;
    final LeaseKeeper keeper;

    LaneFixture(int capacity) {
        slots = new LaneSlots(capacity);
        runner = new LaneRunner(store, work, OWNER, slots, Runnable::run, timers, nanos::get,
                new LaneRunner.Timing(MARGIN_MS, 60_000, 5_000), id -> {
                    changed.add(id);
                    onChanged.accept(id);
                }, Meters.none());
        keeper = new LeaseKeeper(store, runner, OWNER, LEASE_MS, MARGIN_MS, nanos::get);
    }

    /** A run's payload as a feature might make it: the lane carries it and never looks inside. */
    record Input(String text) implements RunPayload {
    }

    /** A lane's payload: nothing chosen. */
    static final LanePayload NO_CHOICE = new LanePayload() { };

    static Claim claim(String runId, long threadId, int attempt) {
        return new Claim(runId, threadId, attempt, LEASE_MS, 0, new Input("input of " + runId), NO_CHOICE);
    }

    static ClaimResult claimed(Claim claim) {
        return new ClaimResult(Optional.of(claim), List.of());
    }

    /** Starts {@code claim} as an ingest on this instance would: reserve, commit, admitted. */
    void admit(Claim claim) {
        if (!runner.reserve()) {
            fail("no slot to admit " + claim);
        }
        runner.admitted(claimed(claim), nanos.get());
    }

    void advanceMs(long ms) {
        nanos.addAndGet(TimeUnit.MILLISECONDS.toNanos(ms));
    }

    Execution execution(RunAttempt key) {
        return runner.executions().stream().filter(e -> e.key().equals(key)).findFirst()
                .orElseThrow(() -> new AssertionError(key + " is not executing; executing: " + runner.executions()));
    }

    static JsonObject output(String text) {
        return Json.createObjectBuilder().add("text", text).build();
    }

    @Override
    public void close() {
        timers.shutdownNow();
    }

    /** A finish as the runner made it. */
    record Finish(Claim claim, String outputJson, String errorMessage, boolean chain) {
    }

    interface FinishAnswer {
        LaneStore.FinishResult answer(Finish finish);
    }

    /** Answers as programmed; records what it was asked. */
    static final class FakeStore implements LaneStore {

        @Override
        public Cancelled cancelLane(long threadId) {
            return new Cancelled(List.of(), List.of());
        }

        final List<Finish> finishes = new CopyOnWriteArrayList<>();
        final List<Long> claims = new CopyOnWriteArrayList<>();
        volatile LongFunction<ClaimResult> onClaim = thread -> ClaimResult.none();
        volatile FinishAnswer onFinish = f -> new LaneStore.FinishResult(false, ClaimResult.none());
        volatile Function<Collection<RunAttempt>, Renewal> onRenew = keys -> new Renewal(Set.copyOf(keys), Set.of());
        volatile List<Long> claimable = List.of();

        @Override
        public ClaimResult claim(long threadId, String owner) {
            claims.add(threadId);
            return onClaim.apply(threadId);
        }

        @Override
        public FinishResult finish(Claim claim, String owner, String outputJson, String errorMessage, boolean chain) {
            Finish f = new Finish(claim, outputJson, errorMessage, chain);
            finishes.add(f);
            return onFinish.answer(f);
        }

        @Override
        public Renewal renew(String owner, Collection<RunAttempt> executing) {
            return onRenew.apply(executing);
        }

        @Override
        public List<Long> claimableThreads(int limit) {
            return claimable.subList(0, Math.min(limit, claimable.size()));
        }

        @Override
        public List<Long> leasedTo(String owner) {
            return List.of();
        }

        @Override
        public boolean handBack(long threadId, String owner) {
            return false;
        }

        List<Finish> finishesOf(RunAttempt key) {
            return finishes.stream().filter(f -> f.claim().key().equals(key)).toList();
        }
    }

    /** Each run's work waits until the test completes it; what the lane told it is recorded. */
    static final class ManualWork implements RunWork {
        final Map<RunAttempt, CompletableFuture<JsonObject>> calls = new ConcurrentHashMap<>();
        /** The first job prepared for each attempt; {@link #all} holds every one, a duplicate's too. */
        final Map<RunAttempt, ManualJob> jobs = new ConcurrentHashMap<>();
        final List<ManualJob> all = new CopyOnWriteArrayList<>();
        final List<RunAttempt> started = Collections.synchronizedList(new ArrayList<>());

        @Override
        public String name() {
            return "manual";
        }

        /** Attempts whose preparation throws (a feature's read failing). */
        final Set<RunAttempt> failingPreparations = ConcurrentHashMap.newKeySet();

        @Override
        public Job prepare(Claim claim, Control control) {
            if (failingPreparations.contains(claim.key())) {
                throw new IllegalStateException("reading what " + claim.runId() + " needs failed");
            }
            ManualJob job = new ManualJob(claim.key(), control);
            jobs.putIfAbsent(claim.key(), job);
            all.add(job);
            return job;
        }

        void complete(RunAttempt key, String text) {
            CompletableFuture<JsonObject> call = calls.get(key);
            if (call == null) {
                fail("the work of " + key + " was never started");
            }
            call.complete(output(text));
        }

        final class ManualJob implements Job {
            private final RunAttempt key;
            private final Control control;
            private volatile boolean stopped;
            volatile boolean started;
            volatile boolean closed;

            ManualJob(RunAttempt key, Control control) {
                this.key = key;
                this.control = control;
            }

            @Override
            public String label() {
                return "manual";
            }

            @Override
            public CompletionStage<JsonObject> start() {
                CompletableFuture<JsonObject> call = new CompletableFuture<>();
                calls.put(key, call);
                ManualWork.this.started.add(key);
                started = true;
                return call;
            }

            @Override
            public void stop() {
                stopped = true;
            }

            @Override
            public void close() {
                closed = true;
            }

            /** True once the lane told it to stop (what an engine's {@code onCancel} hears). */
            boolean stopped() {
                return stopped;
            }

            /** As an engine's cancellation sees it when it checks: told to stop, or the lane's control says no. */
            boolean cancelled() {
                return stopped || !control.mayContinue();
            }
        }
    }
}
