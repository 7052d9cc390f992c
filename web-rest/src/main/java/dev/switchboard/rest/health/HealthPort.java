package dev.switchboard.rest.health;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.health.HealthCheck;

/**
 * The health endpoints on a port of their own ({@code SWITCHBOARD_HEALTH_PORT}, off by default),
 * answered by one thread of their own — not Liberty's request pool, where a probe waits its turn
 * behind every request that arrived before it (during a cold instance's first burst, seconds). A
 * load balancer or orchestrator that probes this port gets its answer in milliseconds under any
 * load: the checks only read state other threads keep (the database probe's last answer, the
 * loops' last rounds). Same paths, bodies and statuses as {@link HealthResource}; GET only.
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

    private HttpServer server;
    private ExecutorService thread;

    void start(@Observes @Initialized(ApplicationScoped.class) Object started) throws IOException {
        if (port <= 0) {
            return;
        }
        InetSocketAddress address = "*".equals(host) ? new InetSocketAddress(port) : new InetSocketAddress(host, port);
        server = HttpServer.create(address, 64);
        // One thread, at most 64 probes waiting for it; beyond that the listener's own thread answers
        // (a probe flood costs that thread time, never unbounded memory).
        thread = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS, new ArrayBlockingQueue<>(64), threadFactory,
                new ThreadPoolExecutor.CallerRunsPolicy());
        server.setExecutor(thread);
        server.createContext("/health", this::answer);
        server.start();
        LOG.info(() -> "Health endpoints also on port " + port);
    }

    private void answer(HttpExchange exchange) throws IOException {
        try (exchange) {
            String path = exchange.getRequestURI().getPath();
            String group = path.equals("/health") || path.equals("/health/") ? "" : path.substring("/health/".length());
            List<HealthCheck> checks = exchange.getRequestMethod().equals("GET") ? health.checks(group) : null;
            int status;
            String body;
            if (checks == null) {
                status = 404;
                body = "{\"error\":{\"code\":\"route_not_found\",\"message\":\"route not found\"}}";
            } else {
                HealthResource.Report report = HealthResource.report(checks);
                status = report.status();
                body = report.body();
            }
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(status, bytes.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "A health probe failed", e);
        }
    }

    @PreDestroy
    void stop() {
        if (server != null) {
            server.stop(0);
            thread.shutdownNow();
        }
    }
}
