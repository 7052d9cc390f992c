package dev.switchboard.rest.health;

import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.health.HealthCheck;

/**
 * The health endpoints on a port of their own ({@code SWITCHBOARD_HEALTH_PORT}, off by default),
 * answered by a {@link ProbeServer} — a thread of its own, not Liberty's request pool, where a probe
 * waits its turn behind every request that arrived before it (during a cold instance's first burst,
 * seconds), and one that no slow or hostile client can stall. A load balancer or orchestrator that
 * probes this port gets its answer in milliseconds under any load: the checks only read state other
 * threads keep (the database probe's last answer, the loops' last rounds). Same paths, bodies and
 * statuses as {@link HealthResource}; GET only.
 */
@ApplicationScoped
public class HealthPort {

    private static final Logger LOG = Logger.getLogger(HealthPort.class.getName());

    @Inject
    @ConfigProperty(name = "switchboard.health.port", defaultValue = "0")
    int port;

    /** The HTTP port's host (HTTP_HOST): {@code *} listens on every interface. */
    @Inject
    @ConfigProperty(name = "http.host", defaultValue = "localhost")
    String host;

    @Inject
    HealthResource health;

    @Resource
    ManagedThreadFactory threadFactory;

    private ProbeServer server;

    void start(@Observes @Initialized(ApplicationScoped.class) Object started) throws IOException {
        if (port <= 0) {
            return;
        }
        InetSocketAddress address = "*".equals(host) ? new InetSocketAddress(port) : new InetSocketAddress(host, port);
        server = new ProbeServer(address, this::answer, threadFactory);
        LOG.info(() -> "Health endpoints also on port " + port);
    }

    /** {@code /health}, {@code /health/live|ready|started}: the report of that group's checks; null for any other path. */
    private ProbeServer.Answer answer(String path) {
        String group = path.equals("/health") || path.equals("/health/") ? ""
                : path.startsWith("/health/") ? path.substring("/health/".length()) : null;
        List<HealthCheck> checks = group == null ? null : health.checks(group);
        if (checks == null) {
            return null;
        }
        HealthResource.Report report = HealthResource.report(checks);
        return new ProbeServer.Answer(report.status(), report.body());
    }

    @PreDestroy
    void stop() {
        if (server != null) {
            server.close();
        }
    }
}
