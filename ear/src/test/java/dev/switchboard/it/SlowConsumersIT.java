package dev.switchboard.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.switchboard.testkit.Await;
import jakarta.json.JsonObject;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Clients that stop reading hold nobody else up: 70 WebSocket subscribers (more than any fixed
 * pool of writer threads) and three NDJSON streams replaying the whole log stop reading, with
 * large notifications filling their TCP buffers. Meanwhile a normal client still receives live
 * notifications at once and another resumes from a seq at once (replays never wait for a slow
 * subscriber); after the send timeout the stalled WebSockets are closed, told a resume point that
 * skips nothing they did not receive.
 */
class SlowConsumersIT {

    private static final int PORT = 9204;
    private static final int STALLED_SOCKETS = 70;
    private static final int STALLED_STREAMS = 3;
    private static final long SEND_TIMEOUT_MS = 6_000;
    private static Instance instance;
    private static String db;

    @BeforeAll
    static void start() {
        db = TestDatabase.recreate("switchboard_it_slow");
        Map<String, String> env = Instance.defaults(db, PORT, "it-slow");
        env.put("SWITCHBOARD_WS_SEND_TIMEOUT_MS", Long.toString(SEND_TIMEOUT_MS));
        env.put("SWITCHBOARD_NOTIFY_BUFFER", "100");
        instance = Instance.start("it-slow", PORT, env);
    }

    @AfterAll
    static void stop() {
        if (instance != null) {
            instance.stopNow(); // the stalled streams' requests are still open
        }
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
            long logEnd = TestDatabase.count(db, "SELECT max(seq) FROM notifications WHERE user_key = ?", "local");
            for (int i = 0; i < STALLED_STREAMS; i++) {
                streams.add(StalledClient.ndjson(PORT, 0)); // replays of ~25 MB each into a client that reads nothing
            }

            long sent = System.nanoTime();
            try (RpcSocket live = RpcSocket.subscribed(PORT, Rpc.obj())) {
                String thread = "live-" + UUID.randomUUID();
                instance.api.message(thread, "still live");
                Await.until(Duration.ofSeconds(3), () -> live.notifications.matching(n -> "turn/completed".equals(Rpc.method(n))
                        && thread.equals(Rpc.threadId(n))).size() == 1, "live delivery to a reading client");
            }
            long liveMs = (System.nanoTime() - sent) / 1_000_000;

            try (RpcSocket resumer = RpcSocket.subscribed(PORT, Rpc.obj("after_seq", logEnd - 30))) {
                Await.until(Duration.ofSeconds(3), () -> resumer.sequenced().stream().filter(n -> Rpc.seq(n) <= logEnd).count() == 30,
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

    private static void closeQuietly(StalledClient c) {
        try {
            c.close();
        } catch (IOException ignored) {
            // already closed by the server
        }
    }
}
