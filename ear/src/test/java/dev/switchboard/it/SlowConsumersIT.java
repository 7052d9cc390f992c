package dev.switchboard.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.switchboard.testkit.Await;
import jakarta.json.JsonObject;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.Set;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.parallel.ResourceAccessMode;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * Clients that stop reading hold nobody else up: 70 WebSocket subscribers (more than any fixed
 * pool of writer threads) and three NDJSON streams replaying the whole log stop reading, with
 * large notifications filling their TCP buffers. Meanwhile a normal client still receives live
 * notifications at once and another resumes from a seq at once (replays never wait for a slow
 * subscriber); after the send timeout the stalled WebSockets are closed, told a resume point that
 * skips nothing they did not receive. And an instance with as many streams open, or clients
 * waiting, as it takes refuses one more at once — 503 {@code server_busy} with {@code Retry-After} —
 * and takes it again once one ends.
 *
 * <p>Its instance also serves {@link NotificationResumeIT}'s slow consumer and
 * {@link DatabaseFaultsIT} (one Liberty start instead of three): the first needs a small
 * notification buffer and a send timeout that cuts a stalled socket too, the second its database
 * behind a fault proxy and one execution slot, which this class's runs take one at a time. Each
 * holds {@link #LOCK} to write — the caps here count every stream and waiting client, the other's
 * load would hold up the deliveries this class expects promptly, and the faults stall everybody.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@ResourceLock(value = SlowConsumersIT.LOCK, mode = ResourceAccessMode.READ_WRITE)
class SlowConsumersIT {

    /** The JUnit resource of this class's instance: every class on it takes it to write. */
    static final String LOCK = "it-slow-instance";

    private static final int PORT = 9204;
    private static final int STALLED_SOCKETS = 70;
    private static final int STALLED_STREAMS = 3;
    private static final long SEND_TIMEOUT_MS = 10_000;
    /**
     * How long a reading client may wait: well under the send timeout, so that delivery held up
     * until the stalled clients are cut fails; not seconds less, as three test classes share two
     * cores (alone, delivery takes about 0.4 s).
     */
    private static final Duration PROMPTLY = Duration.ofMillis(SEND_TIMEOUT_MS * 3 / 4);
    /** Streams and waiting clients the instance takes (its defaults are 10,000): a few more than the other test holds. */
    private static final int STREAMS_MAX = 6;
    private static final int WAITING_MAX = 3;
    /** Notifications kept per subscriber: NotificationResumeIT's reading client takes 60 KB ones under load. */
    static final int NOTIFY_BUFFER = 200;
    private static final String DATABASE = "switchboard_it_slow";
    /** Stopped at once: the stalled streams' requests may still be open. */
    private static final InstanceForClasses<Instance> SHARED = new InstanceForClasses<>(
            Set.of(SlowConsumersIT.class, NotificationResumeIT.class, DatabaseFaultsIT.class), SlowConsumersIT::startShared,
            i -> {
                i.stopNow();
                DatabaseFaultsIT.closeProxy();
            });
    private static Instance instance;

    @BeforeAll
    static void start() {
        instance = instance();
    }

    /** The instance of this class and NotificationResumeIT's slow consumer, started at first use on a fresh database. */
    static Instance instance() {
        return SHARED.get();
    }

    private static Instance startShared() {
        Map<String, String> env = DatabaseFaultsIT.settings(Instance.defaults(TestDatabase.recreate(DATABASE), PORT, "it-slow"),
                DATABASE);
        env.put("SWITCHBOARD_WS_SEND_TIMEOUT_MS", Long.toString(SEND_TIMEOUT_MS));
        env.put("SWITCHBOARD_NOTIFY_BUFFER", Integer.toString(NOTIFY_BUFFER));
        env.put("SWITCHBOARD_STREAMS_MAX", Integer.toString(STREAMS_MAX));
        env.put("SWITCHBOARD_RUNS_MAX_WAITING", Integer.toString(WAITING_MAX));
        return Instance.start("it-slow", PORT, env);
    }

    /** Its database (DatabaseFaultsIT counts rows and sets a trigger in it). */
    static String database() {
        instance();
        return DATABASE;
    }

    /** A class on the instance is done with it: stopped once every one is. */
    static void finished(Class<?> user) {
        SHARED.finished(user);
    }

    @AfterAll
    static void stop() {
        finished(SlowConsumersIT.class);
    }

    @Test
    void clientsThatStopReadingHoldUpNeitherLiveDeliveryNorResumes() throws Exception {
        List<StalledClient> sockets = new ArrayList<>();
        List<StalledClient> streams = new ArrayList<>();
        try {
            for (int i = 0; i < STALLED_SOCKETS; i++) {
                sockets.add(StalledClient.webSocket(PORT, null));
            }
            String bulk = "x".repeat(32 * 1024);
            String prefix = "bulk-" + UUID.randomUUID() + "-";
            String last = null;
            for (int i = 0; i < 200; i++) {
                last = instance.api.message(prefix + (i % 10), "bulk " + i + " " + bulk).getString("run_id");
            }
            instance.api.awaitRun(last, 60);
            // A run's notifications are sequenced after it ends, by the hub's pump: on a busy machine
            // the log's end lags the runs (seen in CI: the pump still sequencing the bulk's 32 KB
            // notifications, which then flooded the reading client's queue and cut it off).
            // The live client comes once the bulk is wholly in the log, as the test means it to.
            Await.until(Duration.ofSeconds(60), () -> TestDatabase.count(DATABASE,
                    "SELECT count(*) FROM notifications WHERE method = 'turn/completed' AND thread_key LIKE ?",
                    prefix + "%") == 200
                    && TestDatabase.count(DATABASE, "SELECT count(*) FROM notification_outbox WHERE user_key = ?", "local") == 0,
                    "every bulk notification sequenced");
            long logEnd = TestDatabase.count(DATABASE, "SELECT max(seq) FROM notifications WHERE user_key = ?", "local");
            for (int i = 0; i < STALLED_STREAMS; i++) {
                streams.add(StalledClient.ndjson(PORT, 0)); // replays of ~25 MB each into a client that reads nothing
            }

            // The reading client resumes from the log's end rather than subscribing "from now": from
            // now is from what this instance's hub has fanned out, which may still be behind the log
            // (the bulk's last notifications) and would then fill the reading client's queue.
            long sent = System.nanoTime();
            try (RpcSocket live = RpcSocket.subscribed(PORT, Rpc.obj("after_seq", logEnd))) {
                String thread = "live-" + UUID.randomUUID();
                String runId = instance.api.message(thread, "still live").getString("run_id");
                try {
                    Await.until(PROMPTLY, () -> live.notifications.matching(n -> "turn/completed".equals(Rpc.method(n))
                            && thread.equals(Rpc.threadId(n))).size() == 1, "live delivery to a reading client");
                } catch (AssertionError late) {
                    // Where the time went: the run's own times (stored, started, finished) against the wait.
                    throw new AssertionError(late.getMessage() + "; the run: " + instance.api.get("/v1/runs/" + runId).body()
                            + "; the log's end before: " + logEnd + ", now: "
                            + TestDatabase.count(DATABASE, "SELECT coalesce(max(seq), 0) FROM notifications WHERE user_key = ?", "local")
                            + "; the socket's notifications: " + live.notifications.matching(n -> true).size()
                            + ", closed: " + live.closed.getNow(null), late);
                }
            }
            long liveMs = (System.nanoTime() - sent) / 1_000_000;
            System.out.println("live delivery took " + liveMs + " ms");

            try (RpcSocket resumer = RpcSocket.subscribed(PORT, Rpc.obj("after_seq", logEnd - 30))) {
                Await.until(PROMPTLY, () -> resumer.sequenced().stream().filter(n -> Rpc.seq(n) <= logEnd).count() == 30,
                        "a resume's replay, while three replays wait for clients that do not read");
            }
            assertTrue(liveMs < SEND_TIMEOUT_MS, "live delivery did not wait for the stalled clients to be cut: " + liveMs);

            // After the send timeout the stalled sockets are closed; the resume point they are told
            // never lies beyond what they completely received.
            StalledClient.Drained drained = sockets.get(0).drain();
            System.out.println("stalled client drained: " + drained.messages().size() + " messages, close "
                    + drained.closeCode() + " " + drained.closeReason() + ", ended " + drained.ended());
            assertTrue(drained.ended(), "the server closed a client that stopped reading");
            long lastReceived = drained.messages().stream().map(Rpc::parse).filter(Rpc::hasSeq).mapToLong(Rpc::seq)
                    .max().orElse(0);
            if (drained.closeCode() != null) {
                assertEquals(1013, drained.closeCode(), drained.closeReason());
                Matcher m = Pattern.compile("after_seq=(\\d+)").matcher(drained.closeReason());
                assertTrue(m.find(), drained.closeReason());
                long resumeAfter = Long.parseLong(m.group(1));
                assertTrue(resumeAfter <= lastReceived, "told to resume after " + resumeAfter
                        + " but the last notification it received whole was " + lastReceived);
            }
        } finally {
            for (StalledClient c : sockets) {
                closeQuietly(c);
            }
            for (StalledClient c : streams) {
                closeQuietly(c);
            }
        }
        JsonObject ready = instance.api.get("/health/ready").json();
        assertEquals("UP", ready.getString("status"), ready.toString());
    }

    @Test
    @Order(1) // first: the other test's stalled streams would hold places until the server notices them gone
    void aFullInstanceRefusesOneMoreStreamOrWaitingClientAtOnceAndSaysWhenToRetry() throws Exception {
        List<HttpResponse<InputStream>> open = new ArrayList<>();
        Path gate = Files.createTempDirectory("slow-gate").resolve("open");
        try {
            // Streams: open until one is refused (the other test may still be letting go of its own).
            HttpResponse<InputStream> refused = null;
            for (int i = 0; i <= STREAMS_MAX && refused == null; i++) {
                HttpResponse<InputStream> r = ndjson();
                if (r.statusCode() == 200) {
                    open.add(r);
                } else {
                    refused = r;
                }
            }
            assertTrue(refused != null, "one stream more than " + STREAMS_MAX + " is refused");
            assertBusy(refused, "code");
            // Refused at once, not queued: answered while every stream it could have is still held
            // open (a queued request would wait for one to end, past this timeout). Not a wall-clock
            // bound: three test classes share two cores.
            HttpResponse<InputStream> streamedResponse = Api.CLIENT.send(instance.api.request("/v1/responses")
                    .timeout(Duration.ofSeconds(15)).header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"echo\",\"input\":\"refused\",\"stream\":true}"))
                    .build(), HttpResponse.BodyHandlers.ofInputStream());
            assertBusy(streamedResponse, "code"); // the Open Responses body: error.code server_busy

            open.remove(0).body().close(); // one client goes away: its place is free once the server notices
            Await.until(Duration.ofSeconds(15), () -> {
                HttpResponse<InputStream> again = ndjson();
                if (again.statusCode() == 200) {
                    open.add(again);
                    return true;
                }
                close(again);
                return false;
            }, "a stream taken again after one ended");

            // Waiting clients: three wait for runs held at a gate; a fourth is refused at once.
            List<java.util.concurrent.CompletableFuture<HttpResponse<String>>> waits = new ArrayList<>();
            for (int i = 0; i < WAITING_MAX; i++) {
                String runId = instance.api.message("held-" + UUID.randomUUID(), "await " + gate + "; held").getString("run_id");
                waits.add(Api.CLIENT.sendAsync(instance.api.request("/v1/runs/" + runId + "/wait?timeout=60").GET().build(),
                        HttpResponse.BodyHandlers.ofString()));
            }
            String other = instance.api.message("held-" + UUID.randomUUID(), "await " + gate + "; other").getString("run_id");
            List<String> probes = new ArrayList<>();
            try {
                Await.until(Duration.ofSeconds(10), () -> {
                    Api.Reply probe = instance.api.get("/v1/runs/" + other + "/wait?timeout=0");
                    probes.add(probe.status() + " " + probe.body().substring(0, Math.min(120, probe.body().length())));
                    return probe.status() == 503;
                }, "a client waiting beyond " + WAITING_MAX + " refused");
            } catch (AssertionError e) {
                throw new AssertionError(e.getMessage() + "; waits done: " + waits.stream().map(w -> w.isDone()
                        ? w.getNow(null).statusCode() + " " + w.getNow(null).body() : "no").toList() + "; probes: "
                        + probes.size() + ", last: " + probes.subList(Math.max(0, probes.size() - 3), probes.size()), e);
            }
            HttpResponse<InputStream> refusedWait = Api.CLIENT.send(instance.api.request("/v1/runs/" + other + "/wait?timeout=5")
                    .GET().build(), HttpResponse.BodyHandlers.ofInputStream());
            assertBusy(refusedWait, "code");
            Files.createFile(gate); // the held runs end: their clients are answered, and a wait is taken again
            for (var wait : waits) {
                HttpResponse<String> answered = wait.get(30, java.util.concurrent.TimeUnit.SECONDS);
                assertEquals(200, answered.statusCode(), answered.body());
                assertTrue(answered.body().contains("\"state\":\"succeeded\""), answered.body());
            }
            assertEquals("succeeded", instance.api.awaitRun(other, 30).getString("state"));
        } finally {
            for (HttpResponse<InputStream> r : open) {
                r.body().close();
            }
            if (!Files.exists(gate)) {
                Files.createFile(gate);
            }
        }
        Await.until(Duration.ofSeconds(15), () -> {
            HttpResponse<InputStream> r = ndjson();
            close(r);
            return r.statusCode() == 200;
        }, "the places of the streams this test held free again");
    }

    private static HttpResponse<InputStream> ndjson() {
        try {
            return Api.CLIENT.send(instance.api.request("/rpc/stream").header("Accept", "application/x-ndjson").GET().build(),
                    HttpResponse.BodyHandlers.ofInputStream());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static void close(HttpResponse<InputStream> r) {
        try {
            r.body().close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** 503, {@code Retry-After} in seconds, and {@code server_busy} in the error body. */
    private static void assertBusy(HttpResponse<InputStream> r, String member) throws IOException {
        String body;
        try (InputStream in = r.body()) {
            body = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        assertEquals(503, r.statusCode(), body);
        assertEquals("1", r.headers().firstValue("Retry-After").orElse(null), body);
        assertEquals("server_busy", Rpc.parse(body).getJsonObject("error").getString(member), body);
    }

    private static void closeQuietly(StalledClient c) {
        try {
            c.close();
        } catch (IOException ignored) {
            // already closed by the server
        }
    }
}
