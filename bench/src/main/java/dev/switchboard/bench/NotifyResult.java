package dev.switchboard.bench;

import jakarta.json.Json;
import jakarta.json.JsonObjectBuilder;
import java.util.Arrays;
import java.util.List;

/**
 * The figures of one notification benchmark: the load that was driven, what every subscriber
 * received (turn/completed of the benchmark's threads), the delivery latency over all deliveries
 * and, when measured, the server's heap.
 */
record NotifyResult(NotifyOptions options, Load load, int connected, long connectMs, double completedPerS,
        int distinctTurns, long notified, int receivedMin, int receivedMax, long missing, int subscribersMissing,
        long duplicates, long interrupted, long seqRegressions, long foreign, long unexpected, long malformed, int closed,
        int overflowed, String firstClose, double minMs, double p50Ms, double p90Ms, double p99Ms, double maxMs,
        Long heapBeforeBytes, Long heapAfterBytes) implements Cli.Report {

    /** The POSTs: accepted (202), failed, how long the load took and how late the latest send started. */
    record Load(int runs, int accepted, int errors, String firstError, double durationS, double maxSendLagMs,
            long startUs) {

        double runsPerS() {
            return durationS > 0 ? accepted / durationS : 0;
        }
    }

    /**
     * @param expected how many turn/completed a subscriber of this thread (null: of all threads)
     *                 must have received: the accepted runs on its thread, or all of them
     */
    static NotifyResult of(NotifyOptions options, Load load, List<Subscriber.Figures> subscribers, long connectMs,
            Turns turns, Long heapBeforeBytes, Long heapAfterBytes, java.util.function.ToIntFunction<String> expected) {
        int receivedMin = Integer.MAX_VALUE;
        int receivedMax = 0;
        long missing = 0;
        int subscribersMissing = 0;
        long duplicates = 0;
        long interrupted = 0;
        long seqRegressions = 0;
        long foreign = 0;
        long unexpected = 0;
        long malformed = 0;
        int closed = 0;
        int overflowed = 0;
        String firstClose = null;
        long notified = 0;
        for (Subscriber.Figures f : subscribers) {
            receivedMin = Math.min(receivedMin, f.received());
            receivedMax = Math.max(receivedMax, f.received());
            int shortBy = Math.max(0, expected.applyAsInt(f.thread()) - f.received());
            missing += shortBy;
            subscribersMissing += shortBy > 0 ? 1 : 0;
            duplicates += f.duplicates();
            interrupted += f.interrupted();
            seqRegressions += f.seqRegressions();
            foreign += f.foreign();
            unexpected += Math.max(0, f.received() - expected.applyAsInt(f.thread())); // another thread's turns
            malformed += f.malformed();
            overflowed += f.overflowed() ? 1 : 0;
            if (f.closedBecause() != null) {
                closed++;
                if (firstClose == null) {
                    firstClose = f.closedBecause();
                }
            }
            notified += f.latencyCount();
        }
        if (subscribers.isEmpty()) {
            receivedMin = 0;
        }
        long[] latencies = new long[(int) notified];
        int at = 0;
        for (Subscriber.Figures f : subscribers) {
            System.arraycopy(f.latenciesUs(), 0, latencies, at, f.latencyCount());
            at += f.latencyCount();
        }
        Arrays.sort(latencies);

        long[] span = turns.completedSpanUs();
        double completedPerS = 0;
        if (span != null && span[1] > load.startUs()) {
            completedPerS = turns.distinct() / ((span[1] - load.startUs()) / 1e6);
        }
        return new NotifyResult(options, load, subscribers.size(), connectMs, completedPerS, turns.distinct(),
                notified, receivedMin, receivedMax, missing, subscribersMissing, duplicates, interrupted,
                seqRegressions, foreign, unexpected, malformed, closed, overflowed, firstClose,
                ms(latencies.length == 0 ? 0 : latencies[0]),
                ms(Percentiles.nearestRank(latencies, 50)), ms(Percentiles.nearestRank(latencies, 90)), ms(Percentiles.nearestRank(latencies, 99)),
                ms(latencies.length == 0 ? 0 : latencies[latencies.length - 1]),
                heapBeforeBytes, heapAfterBytes);
    }

    /** Microseconds as milliseconds with 0.1 ms precision. */
    private static double ms(long micros) {
        return Math.round(micros / 100.0) / 10.0;
    }

    @Override
    public boolean ok() {
        return load.accepted() > 0 && load.errors() == 0 && missing == 0 && unexpected == 0 && duplicates == 0
                && interrupted == 0
                && seqRegressions == 0 && closed == 0;
    }

    private Double heapMb(Long bytes) {
        return bytes == null ? null : round(bytes / (1024.0 * 1024.0), 1);
    }

    private Double heapGrowthMb() {
        return heapBeforeBytes == null || heapAfterBytes == null ? null
                : round((heapAfterBytes - heapBeforeBytes) / (1024.0 * 1024.0), 1);
    }

    @Override
    public String human() {
        String heap;
        if (heapBeforeBytes == null || heapAfterBytes == null) {
            heap = "not measured (no --server-pid / --pid-file, or jcmd failed)";
        } else {
            heap = String.format("before %.1f MB, after %.1f MB, growth %.1f MB (%.1f KB per subscriber; used after full GC)",
                    heapMb(heapBeforeBytes), heapMb(heapAfterBytes), heapGrowthMb(),
                    (heapAfterBytes - heapBeforeBytes) / 1024.0 / Math.max(1, connected));
        }
        return String.join(System.lineSeparator(),
                "== " + (options.label().isEmpty() ? "notify " + options.scenario().id() : options.label()) + " ==",
                String.format("scenario    %s: %d subscriber(s), target %.1f runs/s for %d s over K=%d threads, concurrency %d",
                        options.scenario().id(), connected, options.rate(), options.durationS(), options.k(),
                        options.concurrency()),
                String.format("subscribers %d connected and subscribed in %d ms; %d closed early%s, %d overflowed",
                        connected, connectMs, closed, firstClose == null ? "" : " (" + firstClose + ")", overflowed),
                String.format("load        %d/%d runs accepted (%d POST errors%s) in %.2f s: %.1f runs/s; latest send %.1f ms behind schedule",
                        load.accepted(), load.runs(), load.errors(),
                        load.firstError() == null ? "" : ", first: " + load.firstError(),
                        load.durationS(), load.runsPerS(), load.maxSendLagMs()),
                String.format("completed   %d turns notified, %.1f runs/s (first send to last completed_at)",
                        distinctTurns, completedPerS),
                String.format("delivered   %d turn/completed; per subscriber min %d, max %d of %d; %d missing (%d subscribers short) after %d s grace",
                        notified, receivedMin, receivedMax, load.accepted(), missing, subscribersMissing, options.graceS()),
                String.format("checks      %d duplicates, %d interrupted, %d seq regressions, %d foreign, %d of another"
                        + " subscriber's thread, %d malformed", duplicates, interrupted, seqRegressions, foreign, unexpected,
                        malformed),
                String.format("latency     p50 %.1f ms, p90 %.1f ms, p99 %.1f ms, max %.1f ms, min %.1f ms (completed_at to receipt, %d deliveries)",
                        p50Ms, p90Ms, p99Ms, maxMs, minMs, notified),
                "heap        " + heap,
                "verdict     " + (ok() ? "OK" : "FAILED"));
    }

    @Override
    public String json() {
        JsonObjectBuilder json = Json.createObjectBuilder()
                .add("label", options.label())
                .add("scenario", options.scenario().id())
                .add("subscribers", connected)
                .add("target_runs_per_s", round(options.rate(), 1))
                .add("duration_s", options.durationS())
                .add("k", options.k())
                .add("concurrency", options.concurrency())
                .add("runs", load.runs())
                .add("accepted", load.accepted())
                .add("post_errors", load.errors())
                .add("runs_per_s", round(load.runsPerS(), 1))
                .add("completed_per_s", round(completedPerS, 1))
                .add("send_lag_max_ms", round(load.maxSendLagMs(), 1))
                .add("notified", notified)
                .add("received_min", receivedMin)
                .add("received_max", receivedMax)
                .add("missing", missing)
                .add("subscribers_missing", subscribersMissing)
                .add("p50_ms", p50Ms)
                .add("p90_ms", p90Ms)
                .add("p99_ms", p99Ms)
                .add("max_ms", maxMs)
                .add("min_ms", minMs)
                .add("duplicates", duplicates)
                .add("interrupted", interrupted)
                .add("seq_regressions", seqRegressions)
                .add("foreign", foreign)
                .add("unexpected", unexpected)
                .add("closed", closed)
                .add("overflowed", overflowed)
                .add("connect_ms", connectMs);
        addMb(json, "heap_before_mb", heapMb(heapBeforeBytes));
        addMb(json, "heap_after_mb", heapMb(heapAfterBytes));
        addMb(json, "heap_growth_mb", heapGrowthMb());
        return json.add("ok", ok()).build().toString();
    }

    private static void addMb(JsonObjectBuilder json, String name, Double value) {
        if (value == null) {
            json.addNull(name);
        } else {
            json.add(name, value);
        }
    }

    private static double round(double value, int digits) {
        double scale = Math.pow(10, digits);
        return Math.round(value * scale) / scale;
    }
}
