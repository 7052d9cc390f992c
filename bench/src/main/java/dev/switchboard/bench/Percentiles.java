package dev.switchboard.bench;

/** Nearest-rank percentiles, shared by every report. */
final class Percentiles {

    private Percentiles() {
    }

    /** The {@code p}th percentile of ascending values; 0 when there are none. */
    static long nearestRank(long[] sorted, int p) {
        if (sorted.length == 0) {
            return 0;
        }
        int rank = (int) Math.ceil(p / 100.0 * sorted.length);
        return sorted[Math.max(rank, 1) - 1];
    }
}
