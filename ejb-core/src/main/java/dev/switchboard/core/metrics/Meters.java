package dev.switchboard.core.metrics;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
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
    static final String RUNS_CANCELLED = "switchboard.runs.cancelled";
    static final String RESULTS_FENCED = "switchboard.results.fenced";
    static final String LEASE_TAKEOVERS = "switchboard.lease.takeovers";
    static final String INGRESS_EVENTS = "switchboard.ingress.events";
    static final String NOTIFICATION_LAG = "switchboard.notification.lag";

    /** What the other packages hand in, read at every scrape. */
    public enum Gauge {
        RUNS_EXECUTING("switchboard.runs.executing", "engine calls executing on this instance"),
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

    /** Distinct ingress sources counted apart; a client-chosen source beyond them counts as {@code other}. */
    static final int MAX_INGRESS_SOURCES = 32;

    @Inject
    MetricRegistry registry;

    private final BoundedLabel ingressSources = new BoundedLabel(MAX_INGRESS_SOURCES, "other");

    private final Map<String, Counter> counters = new ConcurrentHashMap<>();
    private final Map<String, Timer> timers = new ConcurrentHashMap<>();

    /** Meters that count nothing. */
    public static Meters none() {
        return new Meters();
    }

    /** Messages stored as runs (not replays of an idempotency key). */
    public void messagesAccepted(int count) {
        if (registry != null && count > 0) {
            counter(MESSAGES_ACCEPTED, "messages stored as runs (idempotent replays not counted)").inc(count);
        }
    }

    /** An engine call began. */
    public void runStarted(String engine) {
        if (registry != null) {
            counter(RUNS_STARTED, "engine calls started, by engine", "engine", engine).inc();
        }
    }

    /**
     * A run ended: {@code outcome} is {@code succeeded} or {@code failed} for a recorded engine
     * result; {@code duration} is the engine call's.
     */
    public void runEnded(String engine, String outcome, Duration duration) {
        if (registry == null) {
            return;
        }
        counter(RUNS_ENDED, "runs ended, by engine and outcome", "engine", engine, "outcome", outcome).inc();
        if (duration != null) {
            timer(RUN_DURATION, "engine call duration, by engine", "engine", engine).update(duration);
        }
    }

    /** Runs ended by their thread's cancel. */
    public void runsCancelled(int count) {
        if (registry != null && count > 0) {
            counter(RUNS_CANCELLED, "runs cancelled by their thread's cancel").inc(count);
        }
    }

    /** A result was not recorded: its run had ended elsewhere or its lease had moved on. */
    public void resultFenced() {
        if (registry != null) {
            counter(RESULTS_FENCED, "engine results discarded by the fence (the run ended elsewhere or its lease moved on)").inc();
        }
    }

    /** A run whose executing instance lost its lease was taken over to run again. */
    public void leaseTakeover() {
        if (registry != null) {
            counter(LEASE_TAKEOVERS, "runs recovered after their executing instance lost its lease").inc();
        }
    }

    /** An ingress event was received: {@code status} accepted, duplicate, deferred or ignored. */
    public void ingressEvent(String source, String status) {
        if (registry != null) {
            counter(INGRESS_EVENTS, "ingress events received, by source and status",
                    "source", ingressSources.of(source), "status", status).inc();
        }
    }

    /** A notification reached the subscribers this long after its transaction committed. */
    public void notificationLag(Duration lag) {
        if (registry != null && !lag.isNegative()) {
            timer(NOTIFICATION_LAG, "time from a notification's commit to its hand-over to the subscribers").update(lag);
        }
    }

    /** Registers a gauge read at every scrape. */
    public void gauge(Gauge gauge, Supplier<Number> value) {
        if (registry != null) {
            registry.gauge(Metadata.builder().withName(gauge.metric).withDescription(gauge.description).build(), value);
        }
    }

    private Counter counter(String name, String description, String... tags) {
        return counters.computeIfAbsent(key(name, tags), k -> registry.counter(
                Metadata.builder().withName(name).withDescription(description).build(), tags(tags)));
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
