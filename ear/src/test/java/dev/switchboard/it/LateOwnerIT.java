package dev.switchboard.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.switchboard.testkit.Await;
import dev.switchboard.testkit.EngineTrace;
import jakarta.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

/**
 * Owners that are alive but late, on two instances sharing PostgreSQL (lease 2 s, heartbeat 0.5 s):
 * an owner frozen past its lease (SIGSTOP) is taken over, and when it goes on (SIGCONT) its engine
 * stops before doing any more work and its result is fenced out; an instance whose clock runs 30 s
 * ahead takes no live lease. Overlap is observed in the engines' own journals.
 */
@Order(8) // among the longest classes: started early in the parallel run (ear/pom.xml)
class LateOwnerIT {

    private static final Duration THIRTY_SECONDS = Duration.ofSeconds(30);
    private static final int PORT_A = 9201;
    private static final int PORT_B = 9202;
    private static Instance a;
    private static Instance b;
    private static String db;

    @BeforeAll
    static void start() {
        db = TestDatabase.recreate("switchboard_it_late");
        a = Instance.start("it-late-a", PORT_A, Instance.defaults(db, PORT_A, "it-late-a"));
        Map<String, String> skewed = Instance.defaults(db, PORT_B, "it-late-b");
        skewed.put("SWITCHBOARD_CLOCK_OFFSET_MS", "30000"); // this instance believes it is 30 s later
        b = Instance.start("it-late-b", PORT_B, skewed);
    }

    @AfterAll
    static void stop() {
        if (a != null) {
            a.resume(); // in case a test failed while it was frozen
            a.stop();
        }
        if (b != null) {
            b.stop();
        }
    }

    /**
     * SIGSTOP may freeze an owner inside a transaction that holds the lane's lock (a renewal):
     * PostgreSQL ends such a session after a while (see DatabaseFaultsIT).
     */
    @Test
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
        assertEquals("it-late-a", calls.get(0).instance());
        assertEquals("cancelled", calls.get(0).outcome(), "A's engine stopped when A went on: " + calls);
        assertEquals("it-late-b", calls.get(1).instance());
        assertEquals("completed", calls.get(1).outcome());
        assertEquals(List.of(), trace(thread).overlaps(), "no two engine calls of the thread at work at once");
        TestDatabase.awaitStamped(db, thread);
        assertEquals(1, TestDatabase.count(db, "SELECT count(*) FROM notifications WHERE thread_key = ? "
                + "AND method = 'turn/completed'", thread), "the turn completed once: A's late result was fenced out");
        JsonObject again = a.api.get("/v1/runs/" + runId).json();
        assertEquals("survived", again.getJsonObject("output").getString("text"));
        assertEquals(2, again.getInt("attempt"), "A changed nothing after it went on");
    }

    @Test
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
            assertFirstAttemptOn(runId, "it-late-a");
        }
        for (String runId : onB) {
            assertFirstAttemptOn(runId, "it-late-b");
        }
        for (String runId : followUps) {
            assertEquals(1, a.api.awaitRun(runId, 60).getInt("attempt"));
        }
        EngineTrace trace = EngineTrace.readDir(Instance.journalDir()).only(c -> c.thread().contains(prefix));
        assertEquals(12, trace.calls().size(), "one engine call per run: " + trace.calls());
        assertEquals(List.of(), trace.overlaps());
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
}
