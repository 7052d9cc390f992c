package dev.switchboard.bench;

import dev.switchboard.bench.SwitchboardClient.BenchException;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * Notification benchmark for a running Switchboard server. Opens S WebSocket subscribers
 * ({@code /ws}, {@code subscribe} without params: all threads, live), then posts runs
 * ({@code POST /v1/messages}) paced at R runs/s for D seconds over K thread keys
 * ({@code notify-<startMillis>-<i % K>}) with a bounded number of POSTs in flight. Every
 * {@code turn/completed} of those threads that a subscriber receives counts once per subscriber
 * and turn; its latency is the receipt wall-clock time minus its {@code completed_at} (same
 * machine clock, microseconds). After the load it waits up to {@code --grace-s} for the rest; a
 * run accepted (202) but not notified to a subscriber by then is missing there.
 *
 * <p>Scenarios: {@code latency} (S=1, R=200) and {@code subscribers} (S=1000, R=50), which with
 * {@code --server-pid}/{@code --pid-file} also measures the server's used heap after a full GC
 * before the subscribers connect and after the load, with them still connected. Prints a
 * human-readable block and a final {@code RESULT {json}} line; exits 1 if any notification is
 * missing (or duplicated, out of seq order, a socket closed, a POST failed), 2 if aborted.
 */
public final class NotifyBench {

    private static final long SUBSCRIBE_TIMEOUT_S = 30;
    private static final long CONNECT_ALL_TIMEOUT_S = 300;

    private final NotifyOptions options;
    private final SwitchboardClient client;
    private final String keyPrefix = "notify-" + System.currentTimeMillis() + "-";

    private NotifyBench(NotifyOptions options) {
        this.options = options;
        this.client = new SwitchboardClient(options.url(), options.token());
    }

    public static void main(String[] args) {
        Cli.main(args, NotifyOptions::parse, NotifyOptions.USAGE, options -> new NotifyBench(options)::run);
    }

    private NotifyResult run() throws Exception {
        client.checkReady();
        Set<String> keys = new LinkedHashSet<>();
        for (int i = 0; i < options.k(); i++) {
            keys.add(keyPrefix + i);
        }
        Turns turns = new Turns(keys);

        Long heapBefore = heap("before opening the subscribers");

        ExecutorService listeners = Executors.newFixedThreadPool(options.clientThreads(), daemon("ws-client"));
        HttpClient wsHttp = HttpClient.newBuilder()
                .executor(listeners)
                .connectTimeout(Duration.ofSeconds(10))
                .build();
        List<Subscriber> subscribers = new ArrayList<>();
        try {
            long connectStart = System.nanoTime();
            open(wsHttp, turns, subscribers);
            long connectMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - connectStart);
            System.out.printf("%d subscribers connected and subscribed in %d ms%n", subscribers.size(), connectMs);

            NotifyResult.Load load = drive();
            System.out.printf("posted %d/%d runs (%d errors) in %.2f s: %.1f runs/s%n", load.accepted(), load.runs(),
                    load.errors(), load.durationS(), load.runsPerS());
            long expected = options.scenario() == NotifyOptions.Scenario.CROWD ? load.accepted()
                    : (long) load.accepted() * subscribers.size();
            awaitDeliveries(turns, expected);

            Long heapAfter = heapBefore == null ? null : heap("after the load, subscribers connected");
            List<Subscriber.Figures> figures = subscribers.stream().map(Subscriber::figures).toList();
            return NotifyResult.of(options, load, figures, connectMs, turns, heapBefore, heapAfter,
                    thread -> thread == null ? load.accepted() : !thread.startsWith(keyPrefix) ? 0
                            : runsOn(Integer.parseInt(thread.substring(keyPrefix.length())), load.accepted(), options.k()));
        } finally {
            closeAll(subscribers);
            listeners.shutdownNow();
        }
    }

    /** Opens the subscribers with at most {@code --connect-concurrency} handshakes in flight; fails if any fails. */
    private void open(HttpClient http, Turns turns, List<Subscriber> subscribers) throws Exception {
        Semaphore handshakes = new Semaphore(options.connectConcurrency());
        List<CompletableFuture<Void>> ready = new ArrayList<>();
        AtomicInteger failed = new AtomicInteger();
        AtomicReference<Throwable> firstFailure = new AtomicReference<>();
        for (int i = 0; i < options.subscribers(); i++) {
            handshakes.acquire();
            Subscriber subscriber = new Subscriber(turns, threadOf(i));
            subscribers.add(subscriber);
            WebSocket.Builder builder = http.newWebSocketBuilder().connectTimeout(Duration.ofSeconds(10));
            if (options.token() != null) {
                builder.header("Authorization", "Bearer " + options.token());
            }
            CompletableFuture<Void> subscribed = builder.buildAsync(options.wsUri(), subscriber)
                    .thenCompose(ws -> subscriber.subscribed())
                    .orTimeout(SUBSCRIBE_TIMEOUT_S, TimeUnit.SECONDS)
                    .whenComplete((ok, error) -> {
                        handshakes.release();
                        if (error != null) {
                            failed.incrementAndGet();
                            firstFailure.compareAndSet(null, error);
                        }
                    });
            ready.add(subscribed);
            if (failed.get() > 0) {
                break; // no point opening the rest
            }
        }
        try {
            CompletableFuture.allOf(ready.toArray(CompletableFuture[]::new)).get(CONNECT_ALL_TIMEOUT_S, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            // counted below
        }
        if (failed.get() > 0 || ready.stream().anyMatch(f -> !f.isDone())) {
            Throwable cause = firstFailure.get();
            while (cause instanceof java.util.concurrent.CompletionException && cause.getCause() != null) {
                cause = cause.getCause();
            }
            throw new BenchException(failed.get() + " of " + ready.size() + " subscribers failed to connect to "
                    + options.wsUri() + " and subscribe" + (cause == null ? "" : ": " + cause));
        }
    }

    /** What subscriber {@code i} follows: all threads, or in the crowd a thread of its own (live or idle). */
    private String threadOf(int i) {
        if (options.scenario() != NotifyOptions.Scenario.CROWD) {
            return null;
        }
        return i < options.live() ? keyPrefix + i : "idle-" + keyPrefix + i;
    }

    /** How many of the accepted runs went to thread {@code i % K}: run j goes to j % K. */
    private static int runsOn(int thread, int accepted, int k) {
        return accepted / k + (thread < accepted % k ? 1 : 0);
    }

    /**
     * Posts {@code rate x duration} runs from {@code --concurrency} workers: run i is sent at
     * {@code start + i / rate} (or as soon as a worker is free, when behind) to thread i % K.
     */
    private NotifyResult.Load drive() throws InterruptedException {
        int runs = options.runs();
        double intervalNs = 1e9 / options.rate();
        AtomicInteger next = new AtomicInteger();
        AtomicInteger accepted = new AtomicInteger();
        AtomicInteger errors = new AtomicInteger();
        AtomicReference<String> firstError = new AtomicReference<>();
        AtomicLong maxLagNs = new AtomicLong();
        long startUs = Notification.nowMicros();
        long startNs = System.nanoTime();
        Runnable worker = () -> {
            for (int i = next.getAndIncrement(); i < runs; i = next.getAndIncrement()) {
                long due = startNs + (long) (i * intervalNs);
                long wait;
                while ((wait = due - System.nanoTime()) > 0) {
                    LockSupport.parkNanos(wait);
                }
                long lag = -wait;
                maxLagNs.accumulateAndGet(lag, Math::max);
                try {
                    client.post(keyPrefix + (i % options.k()), "notify bench message " + i);
                    accepted.incrementAndGet();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                } catch (Exception e) {
                    errors.incrementAndGet();
                    firstError.compareAndSet(null, String.valueOf(e.getMessage()));
                }
            }
        };
        ExecutorService pool = Executors.newFixedThreadPool(options.concurrency(), daemon("poster"));
        try {
            List<Future<?>> workers = new ArrayList<>();
            for (int w = 0; w < options.concurrency(); w++) {
                workers.add(pool.submit(worker));
            }
            for (Future<?> f : workers) {
                try {
                    f.get();
                } catch (ExecutionException e) {
                    throw new BenchException("poster failed: " + e.getCause());
                }
            }
        } finally {
            pool.shutdownNow();
        }
        double durationS = (System.nanoTime() - startNs) / 1e9;
        return new NotifyResult.Load(runs, accepted.get(), errors.get(), firstError.get(), durationS,
                maxLagNs.get() / 1e6, startUs);
    }

    /** Waits until every subscriber has every accepted run's turn/completed, or the grace period is over. */
    private void awaitDeliveries(Turns turns, long expected) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(options.graceS());
        while (turns.delivered() < expected && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        if (turns.delivered() < expected) {
            System.out.printf("after %d s grace: %d of %d deliveries%n", options.graceS(), turns.delivered(), expected);
        }
    }

    /** Used heap of the server in bytes after a full GC; null when no PID was given or jcmd fails. */
    private Long heap(String when) {
        if (options.serverPid() == null && options.pidFile() == null) {
            return null;
        }
        try {
            long used = ServerHeap.usedAfterFullGc(options.pid());
            System.out.printf("server heap %s: %.1f MB used after full GC%n", when, used / (1024.0 * 1024.0));
            return used;
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            System.out.println("server heap " + when + " not measured: " + e.getMessage());
            return null;
        }
    }

    /** Normal close for every socket (10 s to send, 3 s for the server's answer), then abort what is left. */
    private static void closeAll(List<Subscriber> subscribers) {
        List<CompletableFuture<WebSocket>> closing = new ArrayList<>();
        for (Subscriber s : subscribers) {
            try {
                closing.add(s.close());
            } catch (RuntimeException e) {
                s.abort();
            }
        }
        try {
            CompletableFuture.allOf(closing.toArray(CompletableFuture[]::new)).get(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            // aborted below
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
        while (subscribers.stream().anyMatch(s -> !s.inputClosed()) && System.nanoTime() < deadline) {
            try {
                Thread.sleep(20); // the server's close frames
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        subscribers.forEach(Subscriber::abort);
    }

    private static ThreadFactory daemon(String name) {
        AtomicInteger count = new AtomicInteger();
        return runnable -> {
            Thread thread = new Thread(runnable, name + "-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }
}
