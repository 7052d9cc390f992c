package dev.switchboard.core.monitor;

import dev.switchboard.core.clock.InstanceClock;
import dev.switchboard.core.clock.PeriodicTask;
import dev.switchboard.core.lane.LaneController;
import dev.switchboard.core.lane.LaneSettings;
import dev.switchboard.core.metrics.Meters;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.ejb.ConcurrencyManagement;
import jakarta.ejb.ConcurrencyManagementType;
import jakarta.ejb.DependsOn;
import jakarta.ejb.EJB;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.inject.Inject;
import java.util.concurrent.ScheduledExecutorService;
import java.util.logging.Logger;

/**
 * Every {@code switchboard.monitor.sample-ms} stores one row of what this instance did since the
 * last (runs ended and their latencies, messages, webhook attempts, ingress events: the meters'
 * interval figures) and its gauges (executing and queued runs, subscribers); each minute, deletes
 * rows past the retention. The dashboard draws its charts from these rows, every instance's,
 * whichever instance serves it. A sample that cannot be stored is lost, not retried: the next one
 * starts afresh, and a gap in a chart says the database was away.
 */
@Singleton
@Startup
@DependsOn({"SchemaBootstrap", "LaneController"})
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class MonitorSampler {

    private static final Logger LOG = Logger.getLogger(MonitorSampler.class.getName());
    private static final long PRUNE_EVERY_MS = 60_000;

    @Resource
    ManagedThreadFactory threadFactory;

    @EJB
    LaneController lanes;

    @Inject
    LaneSettings laneSettings;

    @Inject
    Meters meters;

    @Inject
    MonitorSamples samples;

    @Inject
    MonitorSettings settings;

    @Inject
    InstanceClock clock;

    private ScheduledExecutorService timer;
    private long lastNanos;
    private long nextPrune;

    @PostConstruct
    void start() {
        meters.takeInterval(); // what happened before the first interval is not part of it
        lastNanos = System.nanoTime();
        timer = PeriodicTask.every(threadFactory, settings.sampleMs(), LOG, "Monitor sample", this::sample);
    }

    private void sample() {
        long now = System.nanoTime();
        int intervalMs = (int) Math.max(1, (now - lastNanos) / 1_000_000);
        lastNanos = now;
        long at = clock.millis();
        samples.insert(MonitorSample.of(lanes.instanceId(), laneSettings.instanceId(), at, intervalMs, meters.takeInterval(),
                meters.read(Meters.Gauge.RUNS_QUEUED), meters.read(Meters.Gauge.RUNS_EXECUTING),
                meters.read(Meters.Gauge.SUBSCRIBERS)));
        if (at >= nextPrune) {
            nextPrune = at + PRUNE_EVERY_MS;
            samples.prune(at - settings.retentionMs());
        }
    }

    @PreDestroy
    void stop() {
        timer.shutdownNow();
    }
}
