package dev.switchboard.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.switchboard.testkit.Await;
import jakarta.json.Json;
import java.net.URI;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.ResourceAccessMode;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.junit.jupiter.params.BeforeParameterizedClassInvocation;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@code /metrics} on a running server, in Prometheus' text format: each figure is read before
 * and after the work it counts, over real HTTP and a real WebSocket.
 */
@ParameterizedClass(name = "on {0}") // on PostgreSQL and on the embedded H2 (SharedInstance)
@EnumSource(SharedInstance.Database.class)
@ResourceLock(value = SharedInstance.LOCK, mode = ResourceAccessMode.READ_WRITE)
class MetricsIT {

    @Parameter
    SharedInstance.Database database;

    private static Api api;

    @BeforeParameterizedClassInvocation
    static void start(SharedInstance.Database database) {
        api = SharedInstance.api(database);
    }

    @Test
    void runsAreCountedByEngineAndOutcomeWithTheirDurations() {
        Scrape before = Scrape.of(api);
        String thread = "metrics-" + UUID.randomUUID();
        api.awaitRun(api.message(thread, "sleep 30; one").getString("run_id"), 30);
        api.awaitRun(api.message(thread, "fail metrics boom").getString("run_id"), 30);
        Scrape after = Scrape.of(api);

        assertTrue(after.delta(before, "switchboard_messages_accepted_total", l -> true) >= 2, after::toString);
        assertTrue(after.delta(before, "switchboard_runs_started_total", l -> l.contains("engine=\"scripted\"")) >= 2);
        assertTrue(after.delta(before, "switchboard_runs_ended_total",
                l -> l.contains("engine=\"scripted\"") && l.contains("outcome=\"succeeded\"")) >= 1);
        assertTrue(after.delta(before, "switchboard_runs_ended_total",
                l -> l.contains("engine=\"scripted\"") && l.contains("outcome=\"failed\"")) >= 1);
        assertTrue(after.delta(before, "switchboard_run_duration_seconds_count", l -> l.contains("engine=\"scripted\"")) >= 2);
        // the 30 ms run lies above the 25 ms bucket's bound
        assertTrue(after.delta(before, "switchboard_run_duration_seconds_bucket", l -> l.contains("le=\"+Inf\""))
                > after.delta(before, "switchboard_run_duration_seconds_bucket", l -> l.contains("le=\"0.025\"")));
        assertTrue(after.delta(before, "switchboard_run_latency_seconds_count", l -> true) >= 2,
                "each run's accept to finish latency is timed");
        assertTrue(after.delta(before, "switchboard_run_latency_seconds_bucket", l -> l.contains("le=\"+Inf\""))
                > after.delta(before, "switchboard_run_latency_seconds_bucket", l -> l.contains("le=\"0.025\"")),
                "the 30 ms run took more than 25 ms from acceptance to its end");
        assertTrue(after.delta(before, "switchboard_notification_lag_seconds_count", l -> true) >= 2,
                "every turn's notifications are handed to the subscribers and timed");
        assertTrue(after.value("http_server_request_duration_seconds_count", l -> l.contains("/v1/messages")) >= 2,
                "HTTP request durations by route");
    }

    @Test
    void theCountersAlertsTakeRatesOfAreServedFromTheStartAtZero() {
        // Born at their first count they would be new series at 1, a rise rate() and increase() miss.
        Scrape now = Scrape.of(api);
        assertTrue(now.has("switchboard_lease_takeovers_total", l -> true), "lease takeovers, before any: " + now);
        assertTrue(now.has("switchboard_results_fenced_total", l -> true), "fenced results");
        assertTrue(now.has("switchboard_runs_ended_total", l -> l.contains("engine=\"scripted\"") && l.contains("outcome=\"failed\"")),
                "failed runs of the instance's engine");
        for (String outcome : java.util.List.of("delivered", "retry", "failed", "refused")) {
            assertTrue(now.has("switchboard_webhooks_attempts_total", l -> l.contains("outcome=\"" + outcome + "\"")),
                    "webhook attempts " + outcome + ", on an instance that has no endpoint");
        }
        assertTrue(now.value("switchboard_lanes_max_concurrent", l -> true) >= 1, "the lane limit is served");
    }

    @Test
    void queuedRunsAndTheirAgeAreGaugedAndCancelsAndFencedResultsCounted() throws InterruptedException {
        String thread = "metrics-queue-" + UUID.randomUUID();
        String running = api.message(thread, "sleep 60000; long").getString("run_id");
        api.message(thread, "waits behind it");
        Await.until(Duration.ofSeconds(30), () -> api.isExecuting(running, 1), "the first run executes");
        Await.until(Duration.ofSeconds(30), () -> {
            Scrape s = Scrape.of(api);
            return s.value("switchboard_runs_queued", l -> true) >= 1
                    && s.value("switchboard_runs_queued_oldest_age_seconds", l -> true) > 0
                    && s.value("switchboard_runs_executing", l -> true) >= 1;
        }, "a queued run is gauged with its age");
        Scrape before = Scrape.of(api);
        assertEquals(200, api.send(api.request("/v1/threads/" + thread + "/cancel")
                .POST(HttpRequest.BodyPublishers.noBody())).status());
        assertEquals(2.0, Scrape.of(api).delta(before, "switchboard_runs_cancelled_total", l -> true));
        Await.until(Duration.ofSeconds(30),
                () -> Scrape.of(api).delta(before, "switchboard_results_fenced_total", l -> true) == 1.0,
                "the cancelled run's engine stops, and its result is fenced out and counted");
    }

    /**
     * By the door they came in through and their status; a sender's {@code source} — free text —
     * names no series (issue 49: with it, {@code /metrics} showed what users wrote).
     */
    @Test
    void ingressEventsAreCountedByDoorAndStatusNeverBySource() {
        String source = "metrics" + Long.toHexString(System.nanoTime());
        String event = Json.createObjectBuilder().add("source", source).add("type", "metrics.test")
                .add("dedupe_key", source + ":1").build().toString();
        Scrape before = Scrape.of(api);
        assertEquals(202, api.postJson("/ingress/events", event).status());
        assertEquals(202, api.postJson("/ingress/events", event).status());
        Scrape after = Scrape.of(api);
        assertEquals(1.0, after.delta(before, "switchboard_ingress_events_total",
                l -> l.contains("door=\"events\"") && l.contains("status=\"accepted\"")), after::toString);
        assertEquals(1.0, after.delta(before, "switchboard_ingress_events_total",
                l -> l.contains("door=\"events\"") && l.contains("status=\"duplicate\"")));
        assertFalse(after.text().contains(source), "a sender's words name no series");
    }

    @Test
    void liveSubscribersAreGauged() throws InterruptedException {
        int port = URI.create(api.base).getPort();
        double before = Scrape.of(api).value("switchboard_subscribers", l -> true);
        try (RpcSocket socket = RpcSocket.subscribed(port, Json.createObjectBuilder().build())) {
            Await.until(Duration.ofSeconds(10),
                    () -> Scrape.of(api).value("switchboard_subscribers", l -> true) >= before + 1, "the subscriber is gauged");
        }
        Await.until(Duration.ofSeconds(10), () -> Scrape.of(api).value("switchboard_subscribers", l -> true) <= before,
                "the closed subscriber is no longer gauged");
    }
}
