package dev.switchboard.rest.health;

import dev.switchboard.core.status.ServerStatus;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/**
 * Ready when the database answers, the lane controller drives lanes and its lease heartbeat has
 * completed within a lease period (a stuck or dead heartbeat would let healthy runs be taken over).
 */
@Readiness
@ApplicationScoped
public class ReadinessCheck implements HealthCheck {

    @EJB
    ServerStatus status;

    @Override
    public HealthCheckResponse call() {
        boolean database = status.databaseReachable();
        boolean lanes = status.lanesRunning();
        boolean heartbeat = status.heartbeatCurrent();
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("database", database ? "reachable" : "unreachable");
        data.put("lanes", lanes ? "running" : "stopped");
        data.put("lease_heartbeat", heartbeat ? "current" : "late");
        data.put("executing_runs", status.executingRuns());
        data.put("instance", status.instanceId());
        return new HealthCheckResponse("switchboard", database && lanes && heartbeat ? HealthCheckResponse.Status.UP
                : HealthCheckResponse.Status.DOWN, Optional.of(data));
    }
}
