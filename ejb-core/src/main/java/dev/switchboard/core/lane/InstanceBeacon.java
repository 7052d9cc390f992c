package dev.switchboard.core.lane;

import dev.switchboard.core.sql.Store;
import dev.switchboard.persistence.thread.DatabaseClock;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.util.ArrayList;
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

    @PersistenceContext(unitName = "switchboard")
    EntityManager em;

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
        int updated = em.createNativeQuery("UPDATE instances SET heartbeat_at = " + DatabaseClock.NOW_MS
                        + ", executing_runs = ? WHERE owner = ?")
                .setParameter(1, executingRuns).setParameter(2, owner).executeUpdate();
        if (updated == 0) {
            em.createNativeQuery("INSERT INTO instances (owner, instance_id, started_at, heartbeat_at, executing_runs) VALUES (?, ?, "
                            + DatabaseClock.NOW_MS + ", " + DatabaseClock.NOW_MS + ", ?)")
                    .setParameter(1, owner).setParameter(2, instanceId).setParameter(3, executingRuns).executeUpdate();
        }
        em.createNativeQuery("DELETE FROM instances WHERE heartbeat_at < " + DatabaseClock.NOW_MS + " - ?")
                .setParameter(1, FORGET_AFTER_MS).executeUpdate();
    }

    /** This start stopped gracefully. */
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public void stopped(String owner) {
        em.createNativeQuery("UPDATE instances SET stopped_at = " + DatabaseClock.NOW_MS + " WHERE owner = ?")
                .setParameter(1, owner).executeUpdate();
    }

    /** Every instance remembered, by name and start, with its state. */
    @TransactionAttribute(TransactionAttributeType.SUPPORTS)
    public List<Instance> list() {
        List<Instance> instances = new ArrayList<>();
        for (Object found : em.createNativeQuery("SELECT owner, instance_id, started_at, heartbeat_at, executing_runs, stopped_at, "
                + DatabaseClock.NOW_MS + " - heartbeat_at FROM instances ORDER BY instance_id, started_at").getResultList()) {
            Object[] row = (Object[]) found;
            Long stoppedAt = row[5] == null ? null : ((Number) row[5]).longValue();
            long ageMs = ((Number) row[6]).longValue();
            instances.add(new Instance((String) row[0], (String) row[1], ((Number) row[2]).longValue(),
                    ((Number) row[3]).longValue(), ((Number) row[4]).intValue(), stoppedAt, ageMs,
                    state(stoppedAt, ageMs, settings.leaseMs())));
        }
        return instances;
    }
}
