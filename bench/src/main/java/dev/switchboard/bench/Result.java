package dev.switchboard.bench;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The figures of one benchmark: throughput and end-to-end latency from the client's send times and
 * the server's finish times, and the per-thread correctness checks.
 */
record Result(Options options, int finished, int unfinished, double durationS, double runsPerS,
        long p50Ms, long p99Ms, long maxMs, int failed, int retried, int overlaps, int orderViolations,
        JsonObject cost) implements Cli.Report {

    /** A posted message: its run, its thread and when the client sent it (epoch ms). */
    record Sent(String runId, String threadKey, long sentAtMs) {
    }

    /** {@code cost}: the server's cost per run ({@link ServerCost}), or null when not measured. */
    static Result of(Options options, List<Sent> sent, Map<String, Run> terminalRuns, JsonObject cost) {
        long firstSend = sent.stream().mapToLong(Sent::sentAtMs).min().orElse(0);
        long lastFinish = firstSend;
        List<Long> latencies = new ArrayList<>();
        int failed = 0;
        int retried = 0;
        for (Sent s : sent) {
            Run run = terminalRuns.get(s.runId());
            if (run == null) {
                continue;
            }
            latencies.add(run.finishedAt() - s.sentAtMs());
            lastFinish = Math.max(lastFinish, run.finishedAt());
            failed += run.failed() ? 1 : 0;
            retried += run.attempt() != 1 ? 1 : 0;
        }
        latencies.sort(null);

        int overlaps = 0;
        int orderViolations = 0;
        Map<String, List<Run>> byThread = terminalRuns.values().stream()
                .collect(Collectors.groupingBy(Run::threadKey));
        for (List<Run> runs : byThread.values()) {
            runs.sort(Comparator.comparingLong(Run::threadSeq));
            for (int i = 1; i < runs.size(); i++) {
                Run previous = runs.get(i - 1);
                Run run = runs.get(i);
                if (run.finishedAt() < previous.finishedAt()) {
                    orderViolations++;
                }
                if (run.startedAt() != null && run.startedAt() < previous.finishedAt()) {
                    overlaps++;
                }
            }
        }

        double durationS = (lastFinish - firstSend) / 1000.0;
        double runsPerS = durationS > 0 ? latencies.size() / durationS : 0;
        return new Result(options, latencies.size(), sent.size() - latencies.size(), durationS, runsPerS,
                percentile(latencies, 50), percentile(latencies, 99),
                latencies.isEmpty() ? 0 : latencies.get(latencies.size() - 1),
                failed, retried, overlaps, orderViolations, cost);
    }

    private static long percentile(List<Long> sorted, int p) {
        return Percentiles.nearestRank(sorted.stream().mapToLong(Long::longValue).toArray(), p);
    }

    @Override
    public boolean ok() {
        return unfinished == 0 && failed == 0 && overlaps == 0 && orderViolations == 0;
    }

    @Override
    public String human() {
        return String.join(System.lineSeparator(),
                "== " + (options.label().isEmpty() ? "benchmark" : options.label()) + " ==",
                String.format("runs        %d/%d finished (N=%d, K=%d, concurrency %d, batch %d); %d failed, %d retried",
                        finished, options.n(), options.n(), options.k(), options.concurrency(), options.batch(),
                        failed, retried),
                String.format("throughput  %.1f runs/s over %.2f s (first send to last finish)", runsPerS, durationS),
                String.format("latency     p50 %d ms, p99 %d ms, max %d ms (send to finished_at)", p50Ms, p99Ms, maxMs),
                String.format("ordering    %d order violations, %d overlaps", orderViolations, overlaps),
                "cost        " + (cost == null ? "not measured (no --pid-file/--db-url)" : cost.toString()),
                "verdict     " + (ok() ? "OK" : "FAILED" + (unfinished > 0 ? " (" + unfinished + " runs unfinished)" : "")));
    }

    @Override
    public String json() {
        JsonObjectBuilder b = Json.createObjectBuilder()
                .add("label", options.label())
                .add("n", options.n())
                .add("k", options.k())
                .add("concurrency", options.concurrency())
                .add("batch", options.batch())
                .add("runs_per_s", round(runsPerS, 1))
                .add("p50_ms", p50Ms)
                .add("p99_ms", p99Ms)
                .add("max_ms", maxMs)
                .add("failed", failed)
                .add("retried", retried)
                .add("overlaps", overlaps)
                .add("order_violations", orderViolations)
                .add("unfinished", unfinished)
                .add("duration_s", round(durationS, 3))
                .add("ok", ok());
        if (cost != null) {
            b.add("cost", cost);
        }
        return b.build().toString();
    }

    private static double round(double value, int digits) {
        double scale = Math.pow(10, digits);
        return Math.round(value * scale) / scale;
    }
}
