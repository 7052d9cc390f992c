package dev.switchboard.bench;

import dev.switchboard.bench.SwitchboardClient.BenchException;
import dev.switchboard.bench.SwitchboardClient.Page;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Benchmark load generator for a running Switchboard server. Posts N messages spread over K
 * thread keys ({@code bench-<startMillis>-<pid>-<i % K>}: generators running at once never share
 * a key) with a bounded number of POSTs in flight,
 * then polls the threads' run lists until every run is terminal. Reports throughput (N over first
 * send to last {@code finished_at}), end-to-end latency (client send time to {@code finished_at},
 * both on the machine's wall clock), and checks that each thread's runs finished in
 * {@code thread_seq} order without overlapping. Prints a human-readable block and a final
 * {@code RESULT {json}} line; exits non-zero if any run failed, overlapped, finished out of order
 * or did not finish within the timeout.
 */
public final class LoadGenerator {

    private static final int PAGE_LIMIT = 200;
    private static final long POLL_INTERVAL_MS = 1000;
    /** The warm-up spreads over at least this many keys, so that it is quick even when K is 1. */
    private static final int WARM_UP_KEYS = 50;

    private final Options options;
    private final SwitchboardClient client;

    private LoadGenerator(Options options) {
        this.options = options;
        this.client = new SwitchboardClient(options.url());
    }

    public static void main(String[] args) {
        Cli.main(args, Options::parse, Options.USAGE, options -> new LoadGenerator(options)::run);
    }

    private Result run() throws Exception {
        long deadline = System.currentTimeMillis() + options.timeoutS() * 1000L;
        client.checkReady();
        if (options.warmUp() > 0) {
            long start = System.currentTimeMillis();
            List<Result.Sent> warm = post(options.warmUp(), Math.max(WARM_UP_KEYS, options.k()),
                    "bench-warm-" + start + "-" + ProcessHandle.current().pid() + "-");
            awaitTerminal(warm, deadline);
            System.out.printf("warm-up: %d runs in %d ms (not reported)%n", options.warmUp(),
                    System.currentTimeMillis() - start);
        }
        ServerCost cost = options.pidFile() == null ? null
                : new ServerCost(Long.parseLong(Files.readString(options.pidFile()).strip()), options.dbUrl());
        ServerCost.Snapshot before = cost == null ? null : cost.snapshot();
        List<Result.Sent> sent = post(options.n(), options.k(),
                "bench-" + System.currentTimeMillis() + "-" + ProcessHandle.current().pid() + "-");
        Map<String, Run> terminal = awaitTerminal(sent, deadline);
        ServerCost.Snapshot after = cost == null ? null : cost.snapshot();
        if (cost != null) {
            List<String> top = ServerCost.topStatements(before, after, terminal.size(), 15);
            if (!top.isEmpty()) {
                System.out.println("statements per run, most frequent first:");
                top.forEach(line -> System.out.println("  " + line));
            }
        }
        return Result.of(options, sent, terminal,
                cost == null ? null : ServerCost.perRun(before, after, terminal.size()).build());
    }

    /** Posts {@code n} messages from {@code concurrency} workers; message i goes to thread {@code keyPrefix} + i % k. */
    private List<Result.Sent> post(int n, int k, String keyPrefix) throws InterruptedException {
        Result.Sent[] sent = new Result.Sent[n];
        AtomicInteger next = new AtomicInteger();
        int batch = options.batch();
        Callable<Void> worker = () -> {
            for (int first = next.getAndAdd(batch); first < n; first = next.getAndAdd(batch)) {
                List<String> keys = new ArrayList<>();
                List<String> texts = new ArrayList<>();
                for (int i = first; i < Math.min(n, first + batch); i++) {
                    keys.add(keyPrefix + (i % k));
                    texts.add("bench message " + i);
                }
                long sentAt = System.currentTimeMillis();
                List<Run> runs = batch == 1 ? List.of(client.post(keys.get(0), texts.get(0))) : client.postBatch(keys, texts);
                for (int j = 0; j < runs.size(); j++) {
                    sent[first + j] = new Result.Sent(runs.get(j).runId(), keys.get(j), sentAt);
                }
            }
            return null;
        };
        long start = System.currentTimeMillis();
        ExecutorService pool = Executors.newFixedThreadPool(options.concurrency());
        try {
            List<Future<Void>> workers = new ArrayList<>();
            for (int w = 0; w < options.concurrency(); w++) {
                workers.add(pool.submit(worker));
            }
            for (Future<Void> f : workers) {
                try {
                    f.get();
                } catch (ExecutionException e) {
                    next.set(n); // stop the other workers
                    Throwable cause = e.getCause();
                    throw cause instanceof BenchException b ? b : new BenchException("POST failed: " + cause);
                }
            }
        } finally {
            pool.shutdownNow();
        }
        System.out.printf("posted %d messages to %d threads in %d ms%n",
                n, k, System.currentTimeMillis() - start);
        return List.of(sent);
    }

    /** Polls each unfinished thread (paged) about every 100 ms until all runs are terminal or the deadline passes. */
    private Map<String, Run> awaitTerminal(List<Result.Sent> sent, long deadline) throws Exception {
        Map<String, ThreadProgress> threads = new LinkedHashMap<>();
        for (Result.Sent s : sent) {
            threads.computeIfAbsent(s.threadKey(), ThreadProgress::new).expected++;
        }
        Map<String, Run> terminal = new HashMap<>();
        List<ThreadProgress> open = new ArrayList<>(threads.values());
        while (!open.isEmpty()) {
            for (ThreadProgress thread : open) {
                poll(thread, terminal);
            }
            open.removeIf(ThreadProgress::done);
            if (open.isEmpty() || System.currentTimeMillis() > deadline) {
                break;
            }
            Thread.sleep(POLL_INTERVAL_MS);
        }
        if (!open.isEmpty()) {
            System.out.printf("timed out after %d s with %d threads unfinished%n", options.timeoutS(), open.size());
        }
        return terminal;
    }

    /**
     * Reads a thread's runs from its cursor: the cursor moves past runs while they are terminal,
     * so each poll starts at the first run not yet known to be finished.
     */
    private void poll(ThreadProgress thread, Map<String, Run> terminal) throws Exception {
        long after = thread.cursor;
        boolean contiguous = true;
        while (true) {
            Page page = client.page(thread.key, after, PAGE_LIMIT);
            if (page == null) {
                return; // not visible yet
            }
            for (Run run : page.runs()) {
                if (run.terminal()) {
                    if (terminal.put(run.runId(), run) == null) {
                        thread.finished++;
                    }
                    if (contiguous) {
                        thread.cursor = run.threadSeq();
                    }
                } else {
                    contiguous = false;
                }
            }
            if (!contiguous || page.nextAfterSeq() == null) {
                return;
            }
            after = page.nextAfterSeq();
        }
    }

    /** Polling state of one thread key. */
    private static final class ThreadProgress {
        final String key;
        int expected;
        int finished;
        long cursor;

        ThreadProgress(String key) {
            this.key = key;
        }

        boolean done() {
            return finished >= expected;
        }
    }
}
