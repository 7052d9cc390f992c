package dev.switchboard.rest.health;

import dev.switchboard.core.status.ServerStatus;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/** Ready when the database answers and the lane controller drives lanes. */
@Readiness
@ApplicationScoped
public class ReadinessCheck implements HealthCheck {

    @EJB
    ServerStatus status;

    @Override
    public HealthCheckResponse call() {
        boolean database = status.databaseReachable();
        boolean lanes = status.lanesRunning();
        return HealthCheckResponse.named("switchboard")
                .status(database && lanes)
                .withData("database", database ? "reachable" : "unreachable")
                .withData("lanes", lanes ? "running" : "stopped")
                .withData("executing_runs", status.executingRuns())
                .withData("instance", status.instanceId())
                .build();
    }
}
