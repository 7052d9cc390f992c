package dev.switchboard.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * Whether a soak's resources grew after its warm-up: the mean of the last third of the measured
 * minutes against the mean of the first third, each figure with its own allowance (a heap after
 * GC may wander by a few megabytes, a pool may add a thread or a connection as load shifts; a leak
 * keeps going). Plain data in, verdict out, so the rule is tested without a server.
 */
final class SoakTrend {

    /** One minute's figures, as {@code scripts/soak.sh} prints them. */
    record Minute(int index, long requests, long failures, long p99Ms, long heapBytes, int threads, int openFiles,
            int dbConnections) {
    }

    private SoakTrend() {
    }

    /** What grew, one line each (empty: nothing); minutes before {@code warmUp} are not judged. */
    static List<String> grew(List<Minute> minutes, int warmUp) {
        List<Minute> measured = minutes.subList(Math.min(warmUp, minutes.size()), minutes.size());
        List<String> grew = new ArrayList<>();
        if (measured.size() < 2) {
            return grew;
        }
        int third = Math.max(1, measured.size() / 3);
        List<Minute> first = measured.subList(0, third);
        List<Minute> last = measured.subList(measured.size() - third, measured.size());
        check(grew, "heap after GC (MB)", first, last, m -> m.heapBytes() / 1e6, 1.25, 16);
        check(grew, "threads", first, last, Minute::threads, 1.0, 16);
        check(grew, "open files", first, last, Minute::openFiles, 1.0, 32);
        check(grew, "database connections", first, last, Minute::dbConnections, 1.0, 8);
        check(grew, "p99 latency (ms)", first, last, Minute::p99Ms, 2.0, 100);
        return grew;
    }

    /** Grew: the last third's mean is above the first third's times {@code factor} plus {@code slack}. */
    private static void check(List<String> grew, String what, List<Minute> first, List<Minute> last,
            ToDoubleFunction<Minute> figure, double factor, double slack) {
        double before = first.stream().mapToDouble(figure).average().orElse(0);
        double after = last.stream().mapToDouble(figure).average().orElse(0);
        if (after > before * factor + slack) {
            grew.add(String.format("%s grew from %.1f to %.1f (allowed: %.1f)", what, before, after, before * factor + slack));
        }
    }
}
