package dev.switchboard.core.monitor;

import dev.switchboard.core.metrics.IntervalFigures;
import java.util.List;

/**
 * One instance's sample: what it did in the interval of {@code intervalMs} ending at
 * {@code sampledAt} (runs ended, latency quantiles, messages, webhook attempts, ingress events) and
 * its gauges then. {@code instance} is the instance's name, {@code owner} that and its start.
 */
public record MonitorSample(String owner, String instance, long sampledAt, int intervalMs, long runsSucceeded,
        long runsFailed, Long latencyP50Ms, Long latencyP99Ms, long messagesAccepted, Long runsQueued,
        int runsExecuting, int subscribers, long webhooksDelivered, long webhooksNotDelivered, long ingressEvents) {

    /** The sample of {@code figures} and the gauges read now; a gauge that could not be read (NaN) is null or 0. */
    public static MonitorSample of(String owner, String instance, long sampledAt, int intervalMs,
            IntervalFigures.Taken figures, double queued, double executing, double subscribers) {
        return new MonitorSample(owner, instance, sampledAt, intervalMs, figures.runsSucceeded(), figures.runsFailed(),
                figures.latencyP50Ms(), figures.latencyP99Ms(), figures.messagesAccepted(),
                Double.isNaN(queued) ? null : Math.round(queued), whole(executing), whole(subscribers),
                figures.webhooksDelivered(), figures.webhooksNotDelivered(), figures.ingressEvents());
    }

    /**
     * The first {@code limit} of {@code oldestFirst} (read with one more than that, to know whether
     * more follow), less the trailing samples taken at the same time as the first one left out: a
     * reader that goes on after the time of the last one it got misses none. Samples of one moment
     * are never split unless all {@code limit} of them share it.
     */
    public static List<MonitorSample> firstPage(List<MonitorSample> oldestFirst, int limit) {
        if (oldestFirst.size() <= limit) {
            return oldestFirst;
        }
        long cut = oldestFirst.get(limit).sampledAt();
        int end = limit;
        while (end > 0 && oldestFirst.get(end - 1).sampledAt() == cut) {
            end--;
        }
        return oldestFirst.subList(0, end == 0 ? limit : end);
    }

    private static int whole(double value) {
        return Double.isNaN(value) ? 0 : (int) Math.round(value);
    }
}
