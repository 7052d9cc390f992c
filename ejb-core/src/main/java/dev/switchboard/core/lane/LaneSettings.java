package dev.switchboard.core.lane;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.net.InetAddress;
import java.util.Optional;
import java.util.UUID;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/** Lane tuning, from MicroProfile Config (environment variables in production). */
@ApplicationScoped
public class LaneSettings {

    /** Runs executing at once on this instance, over all threads. */
    @Inject
    @ConfigProperty(name = "switchboard.lanes.max-concurrent", defaultValue = "64")
    int maxConcurrent;

    /** Threads that claim, finish and chain runs (engines themselves are asynchronous). */
    @Inject
    @ConfigProperty(name = "switchboard.lanes.worker-threads", defaultValue = "16")
    int workerThreads;

    /** How long a lane lease lives without renewal; a crashed owner's runs resume after it. */
    @Inject
    @ConfigProperty(name = "switchboard.lanes.lease-ms", defaultValue = "15000")
    long leaseMs;

    /** How often the owner renews the leases of the runs it executes. */
    @Inject
    @ConfigProperty(name = "switchboard.lanes.heartbeat-ms", defaultValue = "5000")
    long heartbeatMs;

    /** How often the database is scanned for lanes nobody drives (other instances' work, crashes). */
    @Inject
    @ConfigProperty(name = "switchboard.lanes.poll-ms", defaultValue = "1000")
    long pollMs;

    /**
     * Crashed attempts a run may have: an attempt whose lease expires while executing is a crash,
     * and the crash that reaches this number fails the run. Graceful hand-backs do not count.
     */
    @Inject
    @ConfigProperty(name = "switchboard.lanes.max-attempts", defaultValue = "3")
    int maxAttempts;

    /** Longest time one engine call may take before the run fails as timed out. */
    @Inject
    @ConfigProperty(name = "switchboard.runs.timeout-ms", defaultValue = "600000")
    long runTimeoutMs;

    /** On shutdown, how long in-flight runs may take to finish before they are handed back. */
    @Inject
    @ConfigProperty(name = "switchboard.lanes.shutdown-grace-ms", defaultValue = "5000")
    long shutdownGraceMs;

    @Inject
    @ConfigProperty(name = "switchboard.instance-id")
    Optional<String> configuredInstanceId;

    private String instanceId;

    @PostConstruct
    void validate() {
        require(maxConcurrent >= 1, "switchboard.lanes.max-concurrent must be at least 1");
        require(workerThreads >= 1, "switchboard.lanes.worker-threads must be at least 1");
        require(leaseMs >= 1000, "switchboard.lanes.lease-ms must be at least 1000");
        require(heartbeatMs >= 100 && heartbeatMs < leaseMs,
                "switchboard.lanes.heartbeat-ms must be at least 100 and below the lease time");
        require(pollMs >= 50, "switchboard.lanes.poll-ms must be at least 50");
        require(maxAttempts >= 1, "switchboard.lanes.max-attempts must be at least 1");
        require(runTimeoutMs >= 1, "switchboard.runs.timeout-ms must be positive");
        instanceId = configuredInstanceId.map(String::strip).filter(s -> !s.isEmpty()).orElseGet(LaneSettings::hostName);
    }

    private static void require(boolean ok, String message) {
        if (!ok) {
            throw new IllegalStateException(message);
        }
    }

    private static String hostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (Exception e) {
            return "switchboard";
        }
    }

    public int maxConcurrent() {
        return maxConcurrent;
    }

    public int workerThreads() {
        return workerThreads;
    }

    public long leaseMs() {
        return leaseMs;
    }

    /**
     * How much earlier than its lease an execution stops when renewals fail: the engine of a late
     * owner is stopped before the lease can expire in the database and another owner can claim it.
     */
    public long leaseMarginMs() {
        return Math.max(50, leaseMs / 20);
    }

    public LanePolicy policy() {
        return new LanePolicy(maxAttempts);
    }

    public long heartbeatMs() {
        return heartbeatMs;
    }

    public long pollMs() {
        return pollMs;
    }

    public int maxAttempts() {
        return maxAttempts;
    }

    public long runTimeoutMs() {
        return runTimeoutMs;
    }

    public long shutdownGraceMs() {
        return shutdownGraceMs;
    }

    /** This instance's name (configured, or the host name); its lease owner name adds a suffix per start. */
    public String instanceId() {
        return instanceId;
    }

    /**
     * The lease owner name of this start: the instance's name and a random suffix. Unique per
     * process, so a restarted instance never takes its dead predecessor's leases for its own, and
     * two processes given the same name by mistake still never share one.
     */
    public String newOwnerName() {
        return instanceId + "-" + UUID.randomUUID().toString().substring(0, 8);
    }
}
