package dev.switchboard.core.lane;

import dev.switchboard.core.sql.Statements;
import dev.switchboard.core.sql.Store;
import dev.switchboard.persistence.thread.DatabaseClock;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import java.util.List;

/**
 * The cluster's instances as the database knows them: each start of an instance beats with its
 * lease heartbeat, by the database's clock (the clock leases are judged by), and says when it
 * stopped gracefully. Whether an instance is up is then one comparison with the lease period,
 * the same everywhere.
 */
@Store("instances")
@Stateless
public class InstanceBeacon {

    /** An instance not heard of for this long is forgotten. */
    static final long FORGET_AFTER_MS = 86_400_000L;

    /**
     * One start of an instance; {@code stoppedAt} null while it runs; {@code ageMs} since its last
     * beat; {@code state} as {@link #state} judges it.
     */
    public record Instance(String owner, String instanceId, long startedAt, long heartbeatAt, int executingRuns,
            Long stoppedAt, long ageMs, String state) {
    }

    private static final String BEAT = "UPDATE instances SET heartbeat_at = " + DatabaseClock.NOW_MS
            + ", executing_runs = ? WHERE owner = ?";
    private static final String FIRST_BEAT = "INSERT INTO instances (owner, instance_id, started_at, heartbeat_at,"
            + " executing_runs) VALUES (?, ?, " + DatabaseClock.NOW_MS + ", " + DatabaseClock.NOW_MS + ", ?)";
    private static final String FORGET = "DELETE FROM instances WHERE heartbeat_at < " + DatabaseClock.NOW_MS + " - ?";
    private static final String STOPPED = "UPDATE instances SET stopped_at = " + DatabaseClock.NOW_MS + " WHERE owner = ?";
    private static final String LIST = "SELECT owner, instance_id, started_at, heartbeat_at, executing_runs, stopped_at, "
            + DatabaseClock.NOW_MS + " - heartbeat_at FROM instances ORDER BY instance_id, started_at";

    @Inject
    Statements statements;

    @Inject
    LaneSettings settings;

    /**
     * {@code stopped} after a graceful stop; {@code up} with a beat within a lease period — the
     * period after which its leases may be taken over —; {@code late} otherwise (frozen, cut off
     * from the database, or dead).
     */
    static String state(Long stoppedAt, long ageMs, long leaseMs) {
        return stoppedAt != null ? "stopped" : ageMs <= leaseMs ? "up" : "late";
    }

    /** This start is alive, executing {@code executingRuns}; the first beat of a start records it. */
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public void beat(String owner, String instanceId, int executingRuns) {
        int updated = statements.update(BEAT, s -> {
            s.setInt(1, executingRuns);
            s.setString(2, owner);
        }, "beating for " + owner);
        if (updated == 0) {
            statements.updateOne(FIRST_BEAT, s -> {
                s.setString(1, owner);
                s.setString(2, instanceId);
                s.setInt(3, executingRuns);
            }, "recording the start of " + owner);
        }
        statements.update(FORGET, s -> s.setLong(1, FORGET_AFTER_MS), "forgetting instances not heard of");
    }

    /** This start stopped gracefully. */
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public void stopped(String owner) {
        statements.update(STOPPED, s -> s.setString(1, owner), "recording the stop of " + owner);
    }

    /** Every instance remembered, by name and start, with its state. */
    @TransactionAttribute(TransactionAttributeType.SUPPORTS)
    public List<Instance> list() {
        return statements.query(LIST, s -> { }, rs -> {
            Long stoppedAt = Statements.getLong(rs, 6);
            long ageMs = rs.getLong(7);
            return new Instance(rs.getString(1), rs.getString(2), rs.getLong(3), rs.getLong(4), rs.getInt(5), stoppedAt,
                    ageMs, state(stoppedAt, ageMs, settings.leaseMs()));
        }, "listing the instances");
    }
}
