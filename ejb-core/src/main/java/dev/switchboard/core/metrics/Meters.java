package dev.switchboard.core.metrics;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.eclipse.microprofile.metrics.Counter;
import org.eclipse.microprofile.metrics.Metadata;
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.eclipse.microprofile.metrics.Tag;
import org.eclipse.microprofile.metrics.Timer;

/**
 * The one place Switchboard's metrics are named. Counters and timers are looked up once per name
 * and tag set and kept, so a run pays a map lookup and an increment, not a registry lookup.
 * {@link #none()} counts nothing, for code driven without a container (unit tests).
 */
@ApplicationScoped
public class Meters {

    static final String MESSAGES_ACCEPTED = "switchboard.messages.accepted";
    static final String RUNS_STARTED = "switchboard.runs.started";
    static final String RUNS_ENDED = "switchboard.runs.ended";
    static final String RUN_DURATION = "switchboard.run.duration";
    static final String RUN_LATENCY = "switchboard.run.latency";
    static final String RUNS_CANCELLED = "switchboard.runs.cancelled";
    static final String RESULTS_FENCED = "switchboard.results.fenced";
    static final String LEASE_TAKEOVERS = "switchboard.lease.takeovers";
    static final String RETENTION_DELETED = "switchboard.retention.deleted";
    static final String INGRESS_EVENTS = "switchboard.ingress.events";
    static final String NOTIFICATION_LAG = "switchboard.notification.lag";
    static final String WEBHOOK_ATTEMPTS = "switchboard.webhooks.attempts";
    static final String WEBHOOK_LAG = "switchboard.webhooks.lag";

    /** The counters and what they count. */
    private static final Map<String, String> COUNTERS = Map.of(
            MESSAGES_ACCEPTED, "messages stored as runs (idempotent replays not counted)",
            RUNS_STARTED, "engine calls started, by engine",
            RUNS_ENDED, "runs ended, by engine and outcome",
            RUNS_CANCELLED, "runs cancelled by their thread's cancel",
            RESULTS_FENCED, "engine results discarded by the fence (the run ended elsewhere or its lease moved on)",
            LEASE_TAKEOVERS, "runs recovered after their executing instance lost its lease",
            RETENTION_DELETED, "records deleted by retention, by kind",
            WEBHOOK_ATTEMPTS, "webhook delivery attempts, by outcome",
            INGRESS_EVENTS, "ingress events received, by door and status");

    /** What the other packages hand in, read at every scrape. */
    public enum Gauge {
        RUNS_EXECUTING("switchboard.runs.executing", "engine calls executing on this instance"),
        LANES_MAX_CONCURRENT("switchboard.lanes.max.concurrent",
                "the most engine calls this instance executes at once (SWITCHBOARD_LANES_MAX_CONCURRENT)"),
        RUNS_QUEUED("switchboard.runs.queued", "runs waiting in any lane, cluster-wide (NaN: database unreachable)"),
        OLDEST_QUEUED_AGE("switchboard.runs.queued.oldest.age.seconds",
                "how long the oldest waiting run has waited, cluster-wide (0: none waits)"),
        SUBSCRIBERS("switchboard.subscribers", "live notification subscribers on this instance (WebSocket and NDJSON)");

        final String metric;
        final String description;

        Gauge(String metric, String description) {
            this.metric = metric;
            this.description = description;
        }
    }

    @Inject
    MetricRegistry registry;

    private final Map<String, Counter> counters = new ConcurrentHashMap<>();
    private final Map<Gauge, Supplier<Number>> gauges = new ConcurrentHashMap<>();
    private final IntervalFigures interval = new IntervalFigures();
    private final Map<String, Timer> timers = new ConcurrentHashMap<>();

    /** Meters that count nothing. */
    public static Meters none() {
        return new Meters();
    }

    /**
     * Creates at zero the counters that alerts take rates of, {@code engine}'s among them: a counter
     * born at its first count is a new series at 1, and Prometheus' rate and increase see no rise
     * in it, so an instance's first failure, takeover or webhook attempt would go unnoticed.
     */
    public void startAtZero(String engine) {
        if (registry == null) {
            return;
        }
        counter(MESSAGES_ACCEPTED);
        counter(RUNS_STARTED, "engine", engine);
        for (String outcome : List.of("succeeded", "failed")) {
            counter(RUNS_ENDED, "engine", engine, "outcome", outcome);
        }
        counter(RUNS_CANCELLED);
        counter(RESULTS_FENCED);
        counter(LEASE_TAKEOVERS);
        for (String outcome : List.of("delivered", "retry", "failed", "refused")) {
            counter(WEBHOOK_ATTEMPTS, "outcome", outcome);
        }
    }

    /** Messages stored as runs (not replays of an idempotency key). */
    public void messagesAccepted(int count) {
        interval.messagesAccepted(count);
        if (registry != null && count > 0) {
            counter(MESSAGES_ACCEPTED).inc(count);
        }
    }

    /** An engine call began. */
    public void runStarted(String engine) {
        if (registry != null) {
            counter(RUNS_STARTED, "engine", engine).inc();
        }
    }

    /**
     * A run ended: {@code outcome} is {@code succeeded} or {@code failed} for a recorded engine
     * result; {@code duration} is the engine call's, {@code latency} the run's from its acceptance
     * to its recorded end (waiting in its lane included).
     */
    public void runEnded(String engine, String outcome, Duration duration, Duration latency) {
        interval.runEnded("succeeded".equals(outcome), latency);
        if (registry == null) {
            return;
        }
        counter(RUNS_ENDED, "engine", engine, "outcome", outcome).inc();
        if (duration != null) {
            timer(RUN_DURATION, "engine call duration, by engine", "engine", engine).update(duration);
        }
        if (latency != null) {
            timer(RUN_LATENCY, "time from a run's acceptance to its recorded end").update(latency);
        }
    }

    /** Runs ended by their thread's cancel. */
    public void runsCancelled(int count) {
        if (registry != null && count > 0) {
            counter(RUNS_CANCELLED).inc(count);
        }
    }

    /** A result was not recorded: its run had ended elsewhere or its lease had moved on. */
    public void resultFenced() {
        if (registry != null) {
            counter(RESULTS_FENCED).inc();
        }
    }

    /** A run whose executing instance lost its lease was taken over to run again. */
    public void leaseTakeover() {
        if (registry != null) {
            counter(LEASE_TAKEOVERS).inc();
        }
    }

    /** Retention deleted {@code count} records of {@code kind} (runs by their kind, thread items, journal entries, workspaces). */
    public void retentionDeleted(String kind, int count) {
        if (registry != null && count > 0) {
            counter(RETENTION_DELETED, "kind", kind).inc(count);
        }
    }

    /**
     * An ingress event was received through {@code door} (a fixed label: github, events, timer —
     * never the sender's own words): {@code status} accepted, duplicate, deferred or ignored.
     */
    public void ingressEvent(String door, String status) {
        interval.ingressEvent();
        if (registry != null) {
            counter(INGRESS_EVENTS, "door", door, "status", status).inc();
        }
    }

    /** A notification reached the subscribers this long after its transaction committed. */
    public void notificationLag(Duration lag) {
        if (registry != null && !lag.isNegative()) {
            timer(NOTIFICATION_LAG, "time from a notification's commit to its hand-over to the subscribers").update(lag);
        }
    }

    /** A webhook attempt ended: {@code outcome} delivered, retry, failed or refused. */
    public void webhookAttempt(String outcome) {
        interval.webhookAttempt("delivered".equals(outcome));
        if (registry != null) {
            counter(WEBHOOK_ATTEMPTS, "outcome", outcome).inc();
        }
    }

    /** A webhook message was delivered this long after the notification it reports committed. */
    public void webhookLag(Duration lag) {
        if (registry != null && !lag.isNegative()) {
            timer(WEBHOOK_LAG, "time from an event's commit to its webhook's delivery").update(lag);
        }
    }

    /** Registers a gauge read at every scrape. */
    public void gauge(Gauge gauge, Supplier<Number> value) {
        gauges.put(gauge, value);
        if (registry != null) {
            registry.gauge(Metadata.builder().withName(gauge.metric).withDescription(gauge.description).build(), value);
        }
    }

    /** The gauge's value now; NaN when nothing reports it (yet) or it failed. */
    public double read(Gauge gauge) {
        Supplier<Number> value = gauges.get(gauge);
        if (value == null) {
            return Double.NaN;
        }
        try {
            Number n = value.get();
            return n == null ? Double.NaN : n.doubleValue();
        } catch (RuntimeException e) {
            return Double.NaN;
        }
    }

    /** This instance's figures since the last call ({@link IntervalFigures#take}): the one taker is the monitor's sampler. */
    public IntervalFigures.Taken takeInterval() {
        return interval.take();
    }

    private Counter counter(String name, String... tags) {
        return counters.computeIfAbsent(key(name, tags), k -> registry.counter(
                Metadata.builder().withName(name).withDescription(COUNTERS.get(name)).build(), tags(tags)));
    }

    private Timer timer(String name, String description, String... tags) {
        return timers.computeIfAbsent(key(name, tags), k -> registry.timer(
                Metadata.builder().withName(name).withDescription(description).build(), tags(tags)));
    }

    private static String key(String name, String... tags) {
        return tags.length == 0 ? name : name + '\u0000' + String.join("\u0000", tags);
    }

    private static Tag[] tags(String... pairs) {
        Tag[] tags = new Tag[pairs.length / 2];
        for (int i = 0; i < tags.length; i++) {
            tags[i] = new Tag(pairs[2 * i], pairs[2 * i + 1]);
        }
        return tags;
    }
}
