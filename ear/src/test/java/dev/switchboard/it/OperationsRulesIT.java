package dev.switchboard.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import dev.switchboard.testkit.Await;
import jakarta.json.Json;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.http.HttpRequest;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.ResourceAccessMode;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * The metrics the alert rules ({@code ops/prometheus/switchboard-alerts.yml}) and the Grafana
 * dashboard ({@code ops/grafana/switchboard-dashboard.json}) name are the ones a running instance
 * serves at {@code /metrics}. Switchboard registers a labelled counter or timer when it first counts,
 * so the test first makes each happen once — runs that succeed and fail, an ingress event, a lease
 * taken over, a webhook delivered — and then reads every name the two files use, suffix and all
 * ({@code _total}, {@code _bucket}, {@code _count}, …), among the samples served.
 *
 * <p>On {@link HostileInputIT}'s instance (one Liberty start for both), never at the same time as
 * that class: it pauses the runtime and renames a column, which would stall or fail these runs.
 * Not the shared instance: {@code MetricsIT} checks there that the lease takeover and webhook
 * counters are served before anything counted them, which this class's takeover and delivery
 * would make true whatever the code does, whenever it ran first.
 */
@ResourceLock(value = HostileInputIT.LOCK, mode = ResourceAccessMode.READ_WRITE)
class OperationsRulesIT {

    private static final Duration DEADLINE = Duration.ofSeconds(60);

    private static String db;
    private static Api api;
    private static HttpServer receiver;
    /** The endpoint this class registers, deleted at its end: the instance outlives the class. */
    private static String webhookId;
    private static final AtomicInteger deliveries = new AtomicInteger();

    @BeforeAll
    static void start() throws IOException {
        receiver = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        receiver.createContext("/hooks", exchange -> {
            exchange.getRequestBody().readAllBytes();
            deliveries.incrementAndGet();
            exchange.sendResponseHeaders(204, -1);
            exchange.close();
        });
        receiver.start();
        // Webhooks to 127.0.0.1/32, polled every 100 ms: HostileInputIT.instance() configures them for this class.
        api = HostileInputIT.instance().api;
        db = HostileInputIT.database();
    }

    /**
     * The endpoint goes (its messages and delivery log with it), so that the instance, still
     * serving HostileInputIT, does not go on calling a receiver that is gone.
     */
    @AfterAll
    static void stop() {
        try {
            if (webhookId != null) {
                Api.Reply deleted = api.send(api.request("/v1/webhooks/" + webhookId).DELETE());
                assertEquals(204, deleted.status(), deleted.body());
            }
        } finally {
            if (receiver != null) {
                receiver.stop(0);
            }
            HostileInputIT.finished(OperationsRulesIT.class);
        }
    }

    @Test
    void everyMetricTheAlertRulesAndTheDashboardNameIsServed() throws Exception {
        SortedSet<String> named = new TreeSet<>(OpsFiles.metricNames(OpsFiles.read(OpsFiles.RULES)));
        named.addAll(OpsFiles.metricNames(String.join("\n", OpsFiles.dashboardExpressions())));
        assertTrue(named.size() >= 15, "the files name too few metrics to be read right: " + named);

        String hook = "http://127.0.0.1:" + receiver.getAddress().getPort() + "/hooks";
        Api.Reply registered = api.postJson("/v1/webhooks", Json.createObjectBuilder().add("url", hook).build().toString());
        assertEquals(201, registered.status(), "an endpoint hearing every event type is registered");
        webhookId = registered.json().getString("id");

        // runs that end both ways: the run counters by outcome, the duration and the notification lag
        assertEquals("succeeded", api.awaitRun(api.message("ops-ok", "sleep 30; fine").getString("run_id"), 30)
                .getString("status"));
        assertEquals("failed", api.awaitRun(api.message("ops-fail", "fail ops boom").getString("run_id"), 30)
                .getString("status"));

        String event = Json.createObjectBuilder().add("source", "ops").add("type", "ops.probe").build().toString();
        assertEquals(202, api.postJson("/ingress/events", event).status());

        takeOverALease();

        Await.until(DEADLINE, () -> deliveries.get() > 0
                && Scrape.of(api).value("switchboard_webhooks_attempts_total", l -> l.contains("outcome=\"delivered\"")) > 0,
                "a webhook is delivered and counted");

        Scrape scrape = Scrape.of(api);
        SortedSet<String> missing = new TreeSet<>(named);
        missing.removeAll(scrape.samples().keySet());
        assertTrue(missing.isEmpty(), "metrics named in ops/ but not served at /metrics: " + missing
                + "\nsamples of those families served: " + OpsFiles.metricNames(String.join("\n", scrape.samples().keySet())));
    }

    /**
     * A run executes; its lease is made to have expired, as an instance that stopped renewing
     * would leave it (an expired lease is never renewed); the poll takes the run over and counts it.
     */
    private static void takeOverALease() throws InterruptedException, SQLException {
        String thread = "ops-takeover";
        String run = api.message(thread, "sleep 20000; taken over").getString("run_id");
        Await.until(DEADLINE, () -> api.isExecuting(run, 1), "the run executes");
        try (Connection c = TestDatabase.connect(db); PreparedStatement s = c.prepareStatement(
                "UPDATE lanes SET lease_until = CAST(EXTRACT(EPOCH FROM CURRENT_TIMESTAMP) * 1000 AS BIGINT) - 60000"
                        + " WHERE thread_id IN (SELECT id FROM threads WHERE thread_key = ?) AND lease_owner IS NOT NULL")) {
            s.setString(1, thread);
            assertEquals(1, s.executeUpdate(), "the executing run's lane is leased");
        }
        Await.until(DEADLINE, () -> api.isExecuting(run, 2), "the run is taken over as attempt 2");
        Await.until(DEADLINE, () -> Scrape.of(api).value("switchboard_lease_takeovers_total", l -> true) >= 1,
                "the takeover is counted");
        // the second attempt would sleep on to its end; the instance need not wait for it at stop
        assertEquals(200, api.send(api.request("/v1/threads/" + thread + "/cancel")
                .POST(HttpRequest.BodyPublishers.noBody())).status());
    }
}
