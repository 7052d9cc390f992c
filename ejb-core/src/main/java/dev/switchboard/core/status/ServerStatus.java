package dev.switchboard.core.status;

import dev.switchboard.core.lane.LaneController;
import dev.switchboard.core.notify.NotificationHub;
import jakarta.ejb.EJB;
import jakarta.ejb.Stateless;
import java.util.LinkedHashMap;
import java.util.Map;

/** Readiness facts for MicroProfile Health. */
@Stateless
public class ServerStatus {

    @EJB
    DatabaseProbe probe;

    @EJB
    LaneController lanes;

    @EJB
    NotificationHub hub;

    /** The database answered its probe within the last seconds ({@link DatabaseProbe}): never waits for it. */
    public boolean databaseReachable() {
        return probe.reachable();
    }

    /**
     * How long ago each loop the instance depends on last went round, in ms: the lease heartbeat
     * ({@code lanes}), the notification sequencer's pump ({@code sequencer}) and the lane timers'
     * deadline watchdog ({@code timers}). A loop blocked in a hung database or starved of its
     * thread stops going round; one that fails (the database away) keeps going.
     */
    public Map<String, Long> progressAgesMs() {
        Map<String, Long> ages = new LinkedHashMap<>();
        ages.put("lanes", lanes.heartbeatAgeMs());
        ages.put("sequencer", hub.sequencerAgeMs());
        ages.put("timers", lanes.timersAgeMs());
        return ages;
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
