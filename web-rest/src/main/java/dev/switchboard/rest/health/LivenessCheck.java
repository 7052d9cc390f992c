package dev.switchboard.rest.health;

import dev.switchboard.core.status.LoopProgress;
import dev.switchboard.core.status.ServerStatus;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Liveness;

/**
 * Live while the heap has room and the loops the instance depends on go round — the lease
 * heartbeat, the notification sequencer and the lane timers ({@link LoopProgress}, with
 * {@code switchboard.health.stuck-ms}). A database that is away is readiness's concern.
 */
@Liveness
@ApplicationScoped
public class LivenessCheck implements HealthCheck {

    @EJB
    ServerStatus status;

    @Inject
    @ConfigProperty(name = "switchboard.health.stuck-ms", defaultValue = "60000")
    long stuckMs;

    @Override
    public HealthCheckResponse call() {
        Runtime rt = Runtime.getRuntime();
        long used = rt.totalMemory() - rt.freeMemory();
        boolean ok = used < rt.maxMemory() * 0.95;
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("used_mb", used / (1024 * 1024));
        data.put("max_mb", rt.maxMemory() / (1024 * 1024));
        LoopProgress loops = LoopProgress.of(status.progressAgesMs(), stuckMs);
        data.putAll(loops.loops());
        ok &= loops.going();
        return new HealthCheckResponse("switchboard", ok ? HealthCheckResponse.Status.UP : HealthCheckResponse.Status.DOWN,
                Optional.of(data));
    }
}
