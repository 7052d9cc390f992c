package dev.switchboard.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.switchboard.testkit.Await;
import dev.switchboard.testkit.EngineTrace;
import jakarta.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Instances on one PostgreSQL database: shared lanes under load, a graceful stop handing unfinished
 * runs back at once, a crashed owner's run recovered by the survivor (a crashed instance's own next
 * start finishing what it had queued is a rule of the lane, held in-process by
 * {@code LaneOnDatabaseTest}); one log journal and one instance list for all of them; and owners that are
 * alive but late — one frozen past its lease (SIGSTOP) is taken over, and when it goes on (SIGCONT)
 * its engine stops before doing any more work and its result is fenced out; an instance whose clock
 * runs 30 s ahead takes no live lease. Overlap is observed in the engines' own journals, which the
 * instances stamp with the machine's clock.
 *
 * <p>A and B have the test leases of {@link Instance#defaults} (5 s, renewed every second, lanes
 * polled every half second): the recoveries and takeovers below wait for one lease, and the skew
 * test's runs outlive it twice. C alone has a 120 s lease (see its test).
 *
 * <p>B starts with its clock right and comes back from the crash test 30 s ahead. Lease rules read
 * the database's clock, so everything after holds with B skewed; but run times are each instance's
 * own clock (docs/architecture.md), so the checks that compare run times across instances — the load
 * test's "no run started before the previous one finished", the hand-back's delay after the stop,
 * which B might pick up — run before B is skewed.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Order(2) // among the longest classes: started early in the parallel run (ear/pom.xml)
class MultiInstanceIT {

    private static final Duration THIRTY_SECONDS = Duration.ofSeconds(30);
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

    /** B's settings once its clock runs ahead: it believes it is 30 s later than the database and A. */
    private static Map<String, String> skewedB() {
        Map<String, String> env = Instance.defaults(db, PORT_B, "it-b");
        env.put("SWITCHBOARD_CLOCK_OFFSET_MS", "30000");
        return env;
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

        // A or B takes it up: both clocks are still the machine's here, so started_at is comparable with
        // the test's own clock whichever it is.
        JsonObject done = a.api.awaitRun(runId, 60);
        assertEquals("succeeded", done.getString("status"), done.toString());
        assertEquals(2, done.getInt("attempt"));
        assertEquals(0, done.getInt("crashes"), "a hand-back is not a crash");
        long resumedAfterMs = LaneAssertions.millis(done, "started_at") - stopped;
        assertTrue(resumedAfterMs < 30_000, "resumed " + resumedAfterMs + " ms after the stop, not after the lease");
    }

    /**
     * B dies (kill -9) while it executes a run: A, the survivor, recovers the run once B's lease has
     * expired and lists B's start as late; what B wrote to the log journal before it died is still
     * there when it comes back. One crash of B serves both the recovery and the journal and instance
     * list: every instance killed costs a Liberty start to bring back. B comes back 30 s ahead, for the
     * tests that follow.
     */
    @Test
    @Order(3)
    void aRunWhoseOwnerDiedIsRecoveredOnceAndTheLogJournalAndInstanceListShowEveryInstanceThroughItsRestart()
            throws Exception {
        Rpc onB = new Rpc(b.api);
        onB.result("server/pause", Rpc.obj());
        onB.result("server/resume", Rpc.obj());
        // B writes its entries within half a second (LogJournal.FLUSH_MS); A reads them from the table.
        Await.until(THIRTY_SECONDS, () -> pausesOf("it-b", logs(new Rpc(a.api))).findAny().isPresent(),
                "A showing B's pause");
        List<JsonObject> seenFromA = logs(new Rpc(a.api));
        JsonObject paused = pausesOf("it-b", seenFromA).reduce((first, second) -> second).orElseThrow();
        assertTrue(seenFromA.stream().anyMatch(e -> e.getString("instance").equals("it-a")
                && e.getString("message").equals("Log journal attached")), "A's own lines are there too");

        List<JsonObject> cluster = instances(new Rpc(a.api));
        String firstStartOfB = cluster.stream().filter(i -> i.getString("instance").equals("it-b") && i.getString("state").equals("up"))
                .map(i -> i.getString("owner")).findFirst().orElseThrow(() -> new AssertionError("B is not up: " + cluster));
        assertTrue(cluster.stream().anyMatch(i -> i.getString("instance").equals("it-a") && i.getString("state").equals("up")), cluster::toString);
        assertTrue(cluster.stream().anyMatch(i -> i.getString("instance").equals("it-c") && i.getString("state").equals("stopped")
                && !i.isNull("stopped_at")), "the gracefully stopped instance of the previous test: " + cluster);

        String thread = "crash-" + UUID.randomUUID();
        Path gate = gates().resolve(thread); // held until B is dead: its attempt cannot finish first
        JsonObject slow = b.api.message(thread, "await " + gate + "; survived");
        JsonObject next = b.api.message(thread, "after");
        String runId = slow.getString("run_id");
        awaitState(b.api, runId, "executing");
        b.kill();
        Files.createFile(gate);

        try {
            JsonObject recovered = a.api.awaitRun(runId, 60);
            assertEquals("succeeded", recovered.getString("status"), recovered.toString());
            assertEquals(2, recovered.getInt("attempt"), "re-executed once after the lease expired");
            assertEquals(1, recovered.getInt("crashes"), "the expired lease is a crash");
            assertEquals("survived", recovered.getJsonObject("output").getString("text"));
            JsonObject after = a.api.awaitRun(next.getString("run_id"), 60);
            assertEquals(1, after.getInt("attempt"));
            // Both ran on A (B is dead): one clock's times.
            assertTrue(LaneAssertions.millis(after, "started_at") >= LaneAssertions.millis(recovered, "finished_at"));
            Await.until(THIRTY_SECONDS, () -> instances(new Rpc(a.api)).stream()
                    .anyMatch(i -> i.getString("owner").equals(firstStartOfB) && i.getString("state").equals("late")),
                    "A seeing the killed B late (no beat within the 5 s lease)");
        } finally {
            // A new start of B (one Liberty start, as a restart is) with its clock 30 s ahead: the settings
            // of a restart are the first start's, and the late-owner tests below need B skewed. Also when
            // a check above failed: the tests after this one need B.
            b = Instance.start("it-b", PORT_B, skewedB());
        }
        List<JsonObject> restarted = instances(new Rpc(a.api));
        assertTrue(restarted.stream().anyMatch(i -> i.getString("instance").equals("it-b") && i.getString("state").equals("up")
                && !i.getString("owner").equals(firstStartOfB)), "B's new start is up: " + restarted);
        List<JsonObject> afterRestart = logs(new Rpc(b.api));
        assertTrue(afterRestart.contains(paused), "the entry survives B's crash and restart: " + afterRestart);
        assertTrue(afterRestart.stream().filter(e -> e.getString("instance").equals("it-b")
                && e.getString("message").equals("Log journal attached")).count() >= 2, "B's lines of both starts");
    }

    /**
     * B is 30 s ahead since the crash test: were a lease judged by the instance's clock, B would see
     * every lease of A's expired and take it.
     */
    @Test
    @Order(4)
    void anInstanceWhoseClockIsAheadTakesNoLiveLease() throws Exception {
        String prefix = "skew-" + UUID.randomUUID() + "-";
        List<String> onA = new ArrayList<>();
        List<String> onB = new ArrayList<>();
        List<String> followUps = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            // Each outlives its lease (5 s) twice over: only renewals keep it. B (30 s ahead) polls every
            // half second, and a follow-up posted to B makes B try to claim the lane while A holds it.
            onA.add(a.api.message(prefix + "a" + i, "sleep 11000; from a").getString("run_id"));
            followUps.add(b.api.message(prefix + "a" + i, "after").getString("run_id"));
            onB.add(b.api.message(prefix + "b" + i, "sleep 11000; from b").getString("run_id"));
        }
        for (String runId : onA) {
            assertFirstAttemptOn(runId, "it-a");
        }
        for (String runId : onB) {
            assertFirstAttemptOn(runId, "it-b");
        }
        for (String runId : followUps) {
            assertEquals(1, a.api.awaitRun(runId, 60).getInt("attempt"));
        }
        EngineTrace trace = EngineTrace.readDir(Instance.journalDir()).only(c -> c.thread().contains(prefix));
        assertEquals(12, trace.calls().size(), "one engine call per run: " + trace.calls());
        assertEquals(List.of(), trace.overlaps());
    }

    /**
     * A frozen past its lease is taken over by B (30 s ahead since the crash test), which waits for the
     * lease by the database's clock. SIGSTOP may freeze an owner inside a transaction that holds the
     * lane's lock (a renewal): PostgreSQL ends such a session after a while (see DatabaseFaultsIT).
     */
    @Test
    @Order(5)
    void aFrozenOwnerIsTakenOverAndWhenItGoesOnItStopsWithoutDoingMoreWork() throws Exception {
        String thread = "frozen-" + UUID.randomUUID();
        Scrape takeoversBefore = Scrape.of(b.api);
        String runId = a.api.message(thread, "sleep 5000; survived").getString("run_id");
        Await.until(THIRTY_SECONDS, () -> a.api.isExecuting(runId, 1), "attempt 1 executes on A");

        a.pause();
        try {
            Await.until(THIRTY_SECONDS, () -> b.api.isExecuting(runId, 2), "B takes the run over once A's lease expires");
        } finally {
            a.resume();
        }
        JsonObject done = b.api.awaitRun(runId, 60);
        assertEquals("succeeded", done.getString("status"), done.toString());
        assertEquals(2, done.getInt("attempt"));
        assertEquals(1, done.getInt("crashes"), "the frozen owner's lost lease counts as a crash");
        assertEquals(1.0, Scrape.of(b.api).delta(takeoversBefore, "switchboard_lease_takeovers_total", l -> true),
                "B counts the takeover in its metrics");
        assertEquals("survived", done.getJsonObject("output").getString("text"));

        Await.until(THIRTY_SECONDS, () -> trace(thread).callsOf(runId).stream().allMatch(c -> c.outcome() != null),
                "both engine calls have ended");
        List<EngineTrace.Call> calls = trace(thread).callsOf(runId);
        assertEquals(2, calls.size(), calls.toString());
        assertEquals("it-a", calls.get(0).instance());
        assertEquals("cancelled", calls.get(0).outcome(), "A's engine stopped when A went on: " + calls);
        assertEquals("it-b", calls.get(1).instance());
        assertEquals("completed", calls.get(1).outcome());
        assertEquals(List.of(), trace(thread).overlaps(), "no two engine calls of the thread at work at once");
        TestDatabase.awaitStamped(db, thread);
        assertEquals(1, TestDatabase.count(db, "SELECT count(*) FROM notifications WHERE thread_key = ? "
                + "AND method = 'turn/completed'", thread), "the turn completed once: A's late result was fenced out");
        JsonObject again = a.api.get("/v1/runs/" + runId).json();
        assertEquals("survived", again.getJsonObject("output").getString("text"));
        assertEquals(2, again.getInt("attempt"), "A changed nothing after it went on");
    }

    private static void assertFirstAttemptOn(String runId, String instance) {
        JsonObject run = a.api.awaitRun(runId, 60);
        assertEquals("succeeded", run.getString("status"), run.toString());
        assertEquals(1, run.getInt("attempt"), "a live lease was taken: " + run);
        List<EngineTrace.Call> calls = EngineTrace.readDir(Instance.journalDir()).callsOf(runId);
        assertEquals(1, calls.size(), calls.toString());
        assertEquals(instance, calls.get(0).instance());
    }

    private static EngineTrace trace(String thread) {
        return EngineTrace.readDir(Instance.journalDir()).only(c -> c.thread().endsWith("/" + thread));
    }

    private static java.util.stream.Stream<JsonObject> pausesOf(String instance, List<JsonObject> logs) {
        return logs.stream().filter(e -> e.getString("message").equals("Paused event processing")
                && e.getString("instance").equals(instance));
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
