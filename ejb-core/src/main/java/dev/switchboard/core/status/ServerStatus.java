package dev.switchboard.core.status;

import dev.switchboard.core.lane.LaneController;
import jakarta.ejb.EJB;
import jakarta.ejb.Stateless;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;

/** Readiness facts for MicroProfile Health. */
@Stateless
public class ServerStatus {

    @PersistenceContext(unitName = "switchboard")
    EntityManager em;

    @EJB
    LaneController lanes;

    public boolean databaseReachable() {
        try {
            em.createNativeQuery("SELECT 1").getSingleResult();
            return true;
        } catch (RuntimeException e) {
            return false;
        }
    }

    public boolean lanesRunning() {
        return lanes.isRunning();
    }

    /** False when the lease heartbeat has not completed within a lease period (its leases are at risk). */
    public boolean heartbeatCurrent() {
        return lanes.heartbeatCurrent();
    }

    public int executingRuns() {
        return lanes.executingCount();
    }

    public String instanceId() {
        return lanes.instanceId();
    }
}
