package dev.switchboard.core.monitor;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/** How often each instance samples what it did, and how long the samples are kept. */
@ApplicationScoped
public class MonitorSettings {

    @Inject
    @ConfigProperty(name = "switchboard.monitor.sample-ms", defaultValue = "10000")
    long sampleMs;

    @Inject
    @ConfigProperty(name = "switchboard.monitor.retention-minutes", defaultValue = "360")
    long retentionMinutes;

    /** At least a second: the charts need no finer grain, and each sample is a row. */
    public long sampleMs() {
        return Math.max(1_000, sampleMs);
    }

    public long retentionMs() {
        return Math.max(1, retentionMinutes) * 60_000;
    }
}
