package dev.switchboard.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.switchboard.testkit.Await;
import jakarta.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Instances on one PostgreSQL database: shared lanes under load, a crashed owner's run recovered
 * by the survivor, a restarted instance finishing the runs it had queued, and a graceful stop
 * handing unfinished runs back at once; and one log journal and one instance list for all of them.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Order(2) // among the longest classes: started early in the parallel run (ear/pom.xml)
class MultiInstanceIT {

    private static final int PORT_A = 9182;
    private static final int PORT_B = 9183;
    private static Instance a;
    private static Instance b;
    private static String db;

    @BeforeAll
    static void start() {
        db = TestDatabase.recreate("switchboard_it_multi");
        a = Instance.start("it-a", PORT_A, Instance.defaults(db, PORT_A, "it-a"));
        b = Instance.start("it-b", PORT_B, Instance.defaults(db, PORT_B, "it-b"));
    }

    @AfterAll
    static void stop() {
        if (b != null) {
            b.stop();
        }
        if (a != null) {
            try {
                a.resume(); // a test that failed while A was frozen
            } catch (IllegalStateException notRunning) {
                // stopped or killed already
            }
            a.stop();
        }
    }

    @Test
    @Order(1)
    void twoInstancesLoadedTogetherNeverOverlapWithinAThreadNorExecuteARunTwice() throws Exception {
        LaneLoad.postAndVerify("multi-" + UUID.randomUUID() + "-", 20, 10, i -> i % 2 == 0 ? a.api : b.api);
    }

    @Test
    @Order(2)
    void aRunWhoseOwnerDiedIsRecoveredAndCompletesExactlyOnce() throws Exception {
        String thread = "crash-" + UUID.randomUUID();
        Path gate = gates().resolve(thread); // held until B is dead: its attempt cannot finish first
        JsonObject slow = b.api.message(thread, "await " + gate + "; survived");
        JsonObject next = b.api.message(thread, "after");
        String runId = slow.getString("run_id");
        awaitState(b.api, runId, "executing");
        b.kill();
        Files.createFile(gate);

        JsonObject recovered = a.api.awaitRun(runId, 60);
        assertEquals("succeeded", recovered.getString("status"), recovered.toString());
        assertEquals(2, recovered.getInt("attempt"), "re-executed once after the lease expired");
        assertEquals(1, recovered.getInt("crashes"), "the expired lease is a crash");
        assertEquals("survived", recovered.getJsonObject("output").getString("text"));
        JsonObject after = a.api.awaitRun(next.getString("run_id"), 60);
        assertEquals(1, after.getInt("attempt"));
        assertTrue(LaneAssertions.millis(after, "started_at") >= LaneAssertions.millis(recovered, "finished_at"));
        b.restart();
    }

    @Test
    @Order(3)
    void aRestartedServerFinishesEveryRunItHadQueued() throws Exception {
        a.pause(); // B alone (A frozen, holding nothing): what B queued can only be finished by B after its restart
        String prefix = "restart-" + UUID.randomUUID() + "-";
        List<List<String>> texts = new ArrayList<>();
        for (int t = 0; t < 3; t++) {
            List<String> posted = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                String text = prefix + t + "#" + i;
                b.api.message(prefix + t, "sleep 150; " + text);
                posted.add(text);
            }
            texts.add(posted);
        }
        b.kill();
        b.restart();
        for (int t = 0; t < 3; t++) {
            String key = prefix + t;
            List<JsonObject> runs = b.api.threadRuns(key);
            b.api.awaitRun(runs.get(runs.size() - 1).getString("run_id"), 60);
            runs = b.api.threadRuns(key);
            assertEquals(8, runs.size());
            for (JsonObject run : runs) {
                assertEquals("succeeded", run.getString("status"), run.toString());
                assertTrue(run.getInt("attempt") <= 2, run.toString());
            }
            List<String> outputs = runs.stream().map(r -> r.getJsonObject("output").getString("text")).toList();
            assertEquals(texts.get(t), outputs, "FIFO after restart");
        }
        a.resume();
    }

    @Test
    @Order(4)
    void aGracefulStopHandsUnfinishedRunsBackAtOnce() throws Exception {
        int port = 9186;
        var env = Instance.defaults(db, port, "it-c");
        env.put("SWITCHBOARD_LANES_LEASE_MS", "120000"); // a crash would keep the run for two minutes
        Instance c = Instance.start("it-c", port, env);
        String thread = "handback-" + UUID.randomUUID();
        // Held at its step until C has stopped (not for a time, which a slow stop could outlast and
        // let the run finish on C): the stop can only hand it back.
        Path gate = gates().resolve(thread);
        String runId = c.api.message(thread, "await " + gate + "; handed back").getString("run_id");
        awaitState(c.api, runId, "executing");
        long stopped = System.currentTimeMillis();
        c.stop();
        Files.createFile(gate);

        JsonObject done = a.api.awaitRun(runId, 60);
        assertEquals("succeeded", done.getString("status"), done.toString());
        assertEquals(2, done.getInt("attempt"));
        assertEquals(0, done.getInt("crashes"), "a hand-back is not a crash");
        long resumedAfterMs = LaneAssertions.millis(done, "started_at") - stopped;
        assertTrue(resumedAfterMs < 30_000, "resumed " + resumedAfterMs + " ms after the stop, not after the lease");
    }

    @Test
    @Order(5)
    void theLogJournalAndTheInstanceListShowEveryInstanceAndSurviveARestart() throws InterruptedException {
        Rpc onA = new Rpc(a.api);
        onA.result("server/pause", Rpc.obj());
        onA.result("server/resume", Rpc.obj());
        // A writes its entries within half a second (LogJournal.FLUSH_MS); B reads them from the table.
        Await.until(Duration.ofSeconds(10), () -> pausesOfA(logs(new Rpc(b.api))).findAny().isPresent(), "B showing A's pause");
        List<JsonObject> seenFromB = logs(new Rpc(b.api));
        JsonObject paused = pausesOfA(seenFromB).reduce((first, second) -> second).orElseThrow();
        assertTrue(seenFromB.stream().anyMatch(e -> e.getString("instance").equals("it-b")
                && e.getString("message").equals("Log journal attached")), "B's own lines are there too");

        List<JsonObject> cluster = instances(new Rpc(b.api));
        String firstStartOfA = cluster.stream().filter(i -> i.getString("instance").equals("it-a") && i.getString("state").equals("up"))
                .map(i -> i.getString("owner")).findFirst().orElseThrow(() -> new AssertionError("A is not up: " + cluster));
        assertTrue(cluster.stream().anyMatch(i -> i.getString("instance").equals("it-b") && i.getString("state").equals("up")), cluster::toString);
        assertTrue(cluster.stream().anyMatch(i -> i.getString("instance").equals("it-c") && i.getString("state").equals("stopped")
                && !i.isNull("stopped_at")), "the gracefully stopped instance of the previous test: " + cluster);

        a.kill();
        Await.until(Duration.ofSeconds(30), () -> instances(new Rpc(b.api)).stream()
                .anyMatch(i -> i.getString("owner").equals(firstStartOfA) && i.getString("state").equals("late")),
                "B seeing the killed A late (no beat within the 5 s lease)");
        a.restart();
        List<JsonObject> restarted = instances(new Rpc(b.api));
        assertTrue(restarted.stream().anyMatch(i -> i.getString("instance").equals("it-a") && i.getString("state").equals("up")
                && !i.getString("owner").equals(firstStartOfA)), "A's new start is up: " + restarted);
        List<JsonObject> afterRestart = logs(new Rpc(a.api));
        assertTrue(afterRestart.contains(paused), "the entry survives A's crash and restart: " + afterRestart);
        assertTrue(afterRestart.stream().filter(e -> e.getString("instance").equals("it-a")
                && e.getString("message").equals("Log journal attached")).count() >= 2, "A's lines of both starts");
    }

    private static java.util.stream.Stream<JsonObject> pausesOfA(List<JsonObject> logs) {
        return logs.stream().filter(e -> e.getString("message").equals("Paused event processing")
                && e.getString("instance").equals("it-a"));
    }

    private static List<JsonObject> instances(Rpc rpc) {
        return rpc.result("server/instances", Rpc.obj()).getJsonArray("instances").stream().map(v -> v.asJsonObject()).toList();
    }

    private static List<JsonObject> logs(Rpc rpc) {
        return rpc.result("server/logStream", Rpc.obj("max_lines", 10000)).getJsonArray("logs").stream()
                .map(v -> v.asJsonObject()).toList();
    }

    private static void awaitState(Api api, String runId, String state) throws InterruptedException {
        long deadline = System.currentTimeMillis() + 20_000;
        while (System.currentTimeMillis() < deadline) {
            if (state.equals(api.get("/v1/runs/" + runId).json().getString("state"))) {
                return;
            }
            Thread.sleep(50);
        }
        throw new AssertionError("run " + runId + " never reached " + state);
    }

    /** Where the scripted engine's {@code await} gates of this class are created. */
    private static Path gates() throws java.io.IOException {
        return Files.createDirectories(Path.of(System.getProperty("it.work.dir", "target/it")).toAbsolutePath()
                .resolve("gates"));
    }
}
