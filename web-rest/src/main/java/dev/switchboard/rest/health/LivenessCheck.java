package dev.switchboard.rest.health;

import jakarta.enterprise.context.ApplicationScoped;
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
        return HealthCheckResponse.named("heap").status(ok)
                .withData("used_mb", used / (1024 * 1024))
                .withData("max_mb", rt.maxMemory() / (1024 * 1024))
                .build();
    }
}
