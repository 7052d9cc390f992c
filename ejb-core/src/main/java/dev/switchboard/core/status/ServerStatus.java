package dev.switchboard.core.status;

import dev.switchboard.core.lane.LaneController;
import jakarta.ejb.EJB;
import jakarta.ejb.Stateless;

/** Readiness facts for MicroProfile Health. */
@Stateless
public class ServerStatus {

    @EJB
    DatabaseProbe probe;

    @EJB
    LaneController lanes;

    /** The database answered its probe within the last seconds ({@link DatabaseProbe}): never waits for it. */
    public boolean databaseReachable() {
        return probe.reachable();
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
