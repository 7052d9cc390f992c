package dev.switchboard.rest.health;

import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;
import java.util.Optional;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Liveness;

/** Live while the JVM has heap to work with. */
@Liveness
@ApplicationScoped
public class LivenessCheck implements HealthCheck {

    @Override
    public HealthCheckResponse call() {
        Runtime rt = Runtime.getRuntime();
        long used = rt.totalMemory() - rt.freeMemory();
        boolean ok = used < rt.maxMemory() * 0.95;
        return new HealthCheckResponse("heap", ok ? HealthCheckResponse.Status.UP : HealthCheckResponse.Status.DOWN,
                Optional.of(Map.of("used_mb", used / (1024 * 1024), "max_mb", rt.maxMemory() / (1024 * 1024))));
    }
}
