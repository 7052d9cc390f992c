package dev.switchboard.rest.health;

import dev.switchboard.core.status.ServerStatus;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
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
        return HealthCheckResponse.named("switchboard")
                .status(database && lanes && heartbeat)
                .withData("database", database ? "reachable" : "unreachable")
                .withData("lanes", lanes ? "running" : "stopped")
                .withData("lease_heartbeat", heartbeat ? "current" : "late")
                .withData("executing_runs", status.executingRuns())
                .withData("instance", status.instanceId())
                .build();
    }
}
