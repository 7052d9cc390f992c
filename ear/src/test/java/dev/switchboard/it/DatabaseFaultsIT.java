package dev.switchboard.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.switchboard.testkit.Await;
import dev.switchboard.testkit.EngineTrace;
import dev.switchboard.testkit.PgFaultProxy;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.sql.Connection;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.ResourceAccessMode;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * Database faults (PostgreSQL only: they are injected with a wire-protocol proxy and a trigger).
 *
 * <p>Commits whose outcome the instance never learns: a proxy between the instance and PostgreSQL
 * lets a chosen transaction commit and then cuts the connection before the answer. A claim, a
 * finish (which also claims the next run) and an ingest that claimed its idle lane each leave a
 * run leased to this instance; it must adopt it at once — executed once, as attempt 1, long before
 * the lease (5 s) could expire — instead of stranding it until lease recovery. A cut stamp loses
 * and repeats no notification. One execution slot, so a queued lane is claimed in a transaction of
 * its own.
 *
 * <p>An instance frozen half-way through a transaction that locked its lane: the database ends
 * the session once it has sat idle in its transaction for a lease, so the lane is claimed again
 * instead of waiting for the instance to go on.
 *
 * <p>A release of held events that the database refuses: the periodic sweep releases them later,
 * with no resume or restart to prompt it.
 *
 * <p>On SlowConsumersIT's instance, alone while it runs.
 */
@ResourceLock(value = SlowConsumersIT.LOCK, mode = ResourceAccessMode.READ_WRITE) // it stalls and cuts the database: alone there
class DatabaseFaultsIT {

    /** How long a loop may go without going round before liveness says the instance is stuck. */
    private static final long STUCK_MS = 8_000;
    private static PgFaultProxy proxy;
    private static Instance instance;
    private static String db;
    private static int port;

    /**
     * On SlowConsumersIT's instance (one Liberty start instead of two), whose classes hold its lock
     * to write as this one does: its database is reached through this class's fault proxy, with
     * {@link #settings}.
     */
    @BeforeAll
    static void start() {
        instance = SlowConsumersIT.instance();
        db = SlowConsumersIT.database();
        port = instance.port;
    }

    /**
     * This class's settings on the shared instance: the database {@code database} through a fault
     * proxy (started here), one execution slot (a queued lane is claimed in a transaction of its
     * own), held events swept every second, and liveness stuck after {@value #STUCK_MS} ms. The
     * other classes there pass through the proxy untouched, one at a time: one slot runs their runs too.
     */
    static Map<String, String> settings(Map<String, String> env, String database) {
        proxy = new PgFaultProxy(0, "127.0.0.1", 5432).start();
        env.put("DB_URL", "jdbc:postgresql://127.0.0.1:" + proxy.port() + "/" + database + "?sslmode=disable");
        env.put("SWITCHBOARD_LANES_MAX_CONCURRENT", "1");
        env.put("SWITCHBOARD_INGRESS_RELEASE_SWEEP_MS", "1000");
        env.put("SWITCHBOARD_HEALTH_STUCK_MS", Long.toString(STUCK_MS));
        return env;
    }

    /** The proxy, once the instance behind it has stopped. */
    static void closeProxy() {
        if (proxy != null) {
            proxy.close();
        }
    }

    @AfterAll
    static void stop() {
        SlowConsumersIT.finished(DatabaseFaultsIT.class);
    }

    @Test
    void aFinishWhoseCommitWasCutAdoptsTheRunItChained() throws Exception {
        String thread = "finish-" + UUID.randomUUID();
        CompletableFuture<String> cut = proxy.cutAfterCommit(tx -> tx.contains(thread) && tx.contains("turn/completed"));
        JsonObject one = instance.api.message(thread, "sleep 300; one");
        JsonObject two = instance.api.message(thread, "two");
        cut.get(20, TimeUnit.SECONDS);

        JsonObject first = instance.api.awaitRun(one.getString("run_id"), 30);
        JsonObject second = instance.api.awaitRun(two.getString("run_id"), 30);
        assertEquals("one", first.getJsonObject("output").getString("text"), "recorded by the cut commit");
        assertEquals(1, first.getInt("attempt"));
        assertAdoptedAtOnce(second, first);
    }

    @Test
    void aClaimWhoseCommitWasCutIsAdopted() throws Exception {
        String busy = "busy-" + UUID.randomUUID();
        String waiting = "waiting-" + UUID.randomUUID();
        // Only the claim of the waiting lane: its run's "running" progress, without the ingest's "queued".
        CompletableFuture<String> cut = proxy.cutAfterCommit(tx -> tx.contains(waiting)
                && tx.contains("\"state\":\"running\"") && !tx.contains("\"state\":\"queued\""));
        JsonObject a = instance.api.message(busy, "sleep 500; a"); // takes the only slot
        JsonObject b = instance.api.message(waiting, "b"); // queued: claimed once a's slot is free
        cut.get(20, TimeUnit.SECONDS);

        JsonObject first = instance.api.awaitRun(a.getString("run_id"), 30);
        JsonObject second = instance.api.awaitRun(b.getString("run_id"), 30);
        assertAdoptedAtOnce(second, first);
    }

    private static int executingRuns() {
        return instance.api.get("/health/ready").json().getJsonArray("checks").getValuesAs(JsonObject.class).stream()
                .filter(c -> c.containsKey("data") && c.getJsonObject("data").containsKey("executing_runs"))
                .mapToInt(c -> c.getJsonObject("data").getInt("executing_runs")).sum();
    }

    @Test
    void anIngestWhoseCommitWasCutIsAnsweredWith503AndItsClaimedRunIsAdopted() throws Exception {
        // The ingest claims its idle lane only with a free slot — the one slot — and a slot is let go
        // a moment after its run's end can be seen (an earlier test's last run): until an ingest finds
        // it free, its run is claimed in a transaction of its own, the cut never fires and the post is
        // answered 202. So: post, each time on a new thread, until one is cut (its answer says which).
        String body = null;
        Api.Reply failed = null;
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (failed == null) {
            assertTrue(System.nanoTime() < deadline, "no ingest found the slot free within 60 s");
            Await.until(Duration.ofSeconds(30), () -> executingRuns() == 0, "no run executes");
            String thread = "ingest-" + UUID.randomUUID();
            body = Json.createObjectBuilder().add("thread_key", thread).add("text", "c")
                    .add("idempotency_key", "k-" + thread).build().toString();
            CompletableFuture<String> cut = proxy.cutAfterCommit(tx -> tx.contains(thread)
                    && tx.contains("\"state\":\"queued\"") && tx.contains("\"state\":\"running\""));
            Api.Reply reply = instance.api.postJson("/v1/messages", body);
            if (reply.status() == 202) { // stored, and claimed after it: the slot was still taken
                cut.cancel(false);
                instance.api.awaitRun(reply.json().getString("run_id"), 30);
                continue;
            }
            cut.get(20, TimeUnit.SECONDS);
            failed = reply;
        }
        assertEquals(503, failed.status(), "a commit with an unknown outcome is the database's failure: " + failed.body());
        assertEquals("database_unavailable", failed.errorCode());

        Api.Reply retried = instance.api.postJson("/v1/messages", body);
        assertEquals(202, retried.status(), retried.body());
        JsonObject run = instance.api.awaitRun(retried.json().getString("run_id"), 30);
        assertEquals("succeeded", run.getString("status"), run.toString());
        assertEquals(1, run.getInt("attempt"), "adopted, not recovered after its lease expired: " + run);
        assertEquals(0, crashes(run));
    }

    @Test
    void aStampWhoseCommitWasCutLosesAndRepeatsNoNotification() throws Exception {
        String thread = "stamp-" + UUID.randomUUID();
        try (RpcSocket subscriber = RpcSocket.subscribed(port, Rpc.obj("threads", Rpc.arr(thread)))) {
            long from = subscriber.subscribeResult.getJsonNumber("after_seq").longValue();
            CompletableFuture<String> cut = proxy.cutAfterCommit(tx -> tx.contains("notification_sequencer"));
            List<String> runs = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                runs.add(instance.api.message(thread, "stamp " + i).getString("run_id"));
            }
            cut.get(20, TimeUnit.SECONDS);
            for (String runId : runs) {
                instance.api.awaitRun(runId, 30);
            }
            // The pump retries the cut stamp: wait until nothing of the thread waits in the outbox.
            TestDatabase.awaitStamped(db, thread);
            long expected = TestDatabase.count(db, "SELECT count(*) FROM notifications WHERE thread_key = ?", thread);
            assertTrue(expected >= 3 * 5, "started, user item, queued, running, reply, completed per run: " + expected);
            Await.until(Duration.ofSeconds(30), () -> subscriber.sequenced().size() >= expected,
                    "every notification delivered");
            List<Long> seqs = subscriber.sequenced().stream().map(Rpc::seq).toList();
            assertEquals(expected, seqs.size(), "none repeated: " + seqs);
            assertEquals(new HashSet<>(seqs).size(), seqs.size(), "no duplicate seq: " + seqs);
            assertTrue(seqs.stream().allMatch(s -> s > from));
            for (int i = 1; i < seqs.size(); i++) {
                assertTrue(seqs.get(i) > seqs.get(i - 1), "in seq order: " + seqs);
            }
            assertEquals(logSeqs(thread), new HashSet<>(seqs), "exactly the log");
        }
    }

    @Test
    void anOwnerFrozenInsideATransactionHoldsItsLaneNoLongerThanItsLease() throws Exception {
        String thread = "frozen-tx-" + UUID.randomUUID();
        // Long enough that attempt 1 cannot finish before its lease deadline (5 s after its last renewal).
        String runId = instance.api.message(thread, "sleep 9000; survived").getString("run_id");
        Await.until(Duration.ofSeconds(30), () -> instance.api.isExecuting(runId, 1), "attempt 1 executes");
        // The next lease renewal locks the lane's thread row, and then its client freezes: the
        // session sits idle in its transaction holding the lock, as if the instance had stopped
        // (a stall, SIGSTOP) half-way through the renewal.
        try (PgFaultProxy.Hold hold = proxy.holdAfter(tx -> tx.contains("lease_owner = $1") && tx.contains("FOR UPDATE"))) {
            hold.held().get(10, TimeUnit.SECONDS);
            // Attempt 1 stops at its lease deadline; the lane's next claim waits for the lock until
            // the database ends the frozen session (idle in its transaction for a lease, 5 s), then
            // recovers the run, while the hold still stands.
            Await.until(Duration.ofSeconds(30), () -> instance.api.isExecuting(runId, 2),
                    "the lane is claimed again although the frozen session never went on");
            hold.ended().get(5, TimeUnit.SECONDS);
        }
        JsonObject done = instance.api.awaitRun(runId, 60);
        assertEquals("succeeded", done.getString("status"), done.toString());
        assertEquals(2, done.getInt("attempt"));
        assertEquals(1, crashes(done), "the lease lost to the freeze counts as a crash");
        assertEquals("survived", done.getJsonObject("output").getString("text"));
        EngineTrace trace = EngineTrace.readDir(Instance.journalDir()).only(c -> c.thread().endsWith("/" + thread));
        List<EngineTrace.Call> calls = trace.callsOf(runId);
        assertEquals(2, calls.size(), calls.toString());
        assertEquals("cancelled", calls.get(0).outcome(), "attempt 1 stopped at its deadline: " + calls);
        assertEquals("completed", calls.get(1).outcome());
        assertEquals(List.of(), trace.overlaps(), "no two engine calls of the thread at work at once");
    }

    /**
     * A database that hangs (every byte held both ways, as behind a dead network path): readiness
     * says so within seconds, then liveness, once the heartbeat and the sequencer have been stuck
     * for {@link #STUCK_MS} — while every health answer comes at once. When the database answers
     * again the instance is live, ready and serving.
     */
    @Test
    void aHungDatabaseMakesTheInstanceUnreadyThenNotLiveAndItRecovers() throws Exception {
        proxy.stall(true);
        try {
            Await.until(Duration.ofSeconds(15), () -> health("/health/ready") == 503, "not ready while the database hangs");
            Await.until(Duration.ofMillis(STUCK_MS + 15_000), () -> health("/health/live") == 503,
                    "not live once a loop has been stuck for " + STUCK_MS + " ms");
            // Each loop is stuck from its first call into the hung database on: the heartbeat's and the pump's.
            Await.until(Duration.ofMillis(STUCK_MS + 15_000), () -> liveData().getString("lanes").startsWith("stuck for ")
                    && liveData().getString("sequencer").startsWith("stuck for "), "the heartbeat and the pump both stuck");
            assertEquals("progressing", liveData().getString("timers"), "the timers do not wait for the database");
        } finally {
            proxy.stall(false);
        }
        Await.until(Duration.ofSeconds(30), () -> health("/health/live") == 200 && health("/health/ready") == 200,
                "live and ready again");
        JsonObject run = instance.api.awaitRun(instance.api.message("after-the-hang", "back").getString("run_id"), 30);
        assertEquals("succeeded", run.getString("status"), run.toString());
    }

    /**
     * The database goes away (as a stopped server: open connections reset, new ones refused) while
     * a run executes: requests get a clear 503 {@code database_unavailable} instead of a 500 or a
     * hang, readiness says so without waiting for the database, and once it is back the
     * acknowledged run — whose engine call ended during the outage — is recorded as it finished.
     */
    @Test
    void anAcknowledgedRunSurvivesADatabaseOutageAndRequestsMeanwhileGet503() throws Exception {
        Api api = instance.api;
        Path gate = Files.createDirectories(Path.of("target", "it", "faults-gates").toAbsolutePath())
                .resolve(UUID.randomUUID().toString());
        String runId = api.message("outage-" + UUID.randomUUID(), "await " + gate + "; survived the outage").getString("run_id");
        Await.until(Duration.ofSeconds(30), () -> !EngineTrace.readDir(Instance.journalDir()).callsOf(runId).isEmpty(),
                "the run executes");
        proxy.outage();
        try {
            Api.Reply during = api.postJson("/v1/messages", "{\"text\":\"during\"}");
            assertEquals(503, during.status(), during.body());
            assertEquals("database_unavailable", during.errorCode());
            Api.Reply read = api.get("/v1/runs/" + runId);
            assertEquals(503, read.status(), read.body());
            Await.until(Duration.ofSeconds(10), () -> health("/health/ready") == 503, "readiness DOWN while the database is away");

            // The engine's call ends while the database is away: its result can only be recorded once it is back.
            Files.createFile(gate);
            Await.until(Duration.ofSeconds(30), () -> EngineTrace.readDir(Instance.journalDir()).callsOf(runId).stream()
                    .anyMatch(c -> c.outcome() != null), "the run's engine call ended during the outage");
        } finally {
            if (!Files.exists(gate)) { // failed before: the instance's one slot must not stay held for the classes after
                Files.createFile(gate);
            }
            proxy.restore();
        }
        JsonObject done = api.awaitRun(runId, 60);
        Await.until(Duration.ofSeconds(10), () -> health("/health/ready") == 200, "ready again");
        assertEquals("succeeded", done.getString("status"), done.toString());
        assertEquals("survived the outage", done.getJsonObject("output").getString("text"));
    }

    private static JsonObject liveData() {
        return instance.api.get("/health/live").json().getJsonArray("checks").getJsonObject(0).getJsonObject("data");
    }

    /**
     * The status of a health route. It is asked while the database is away or hung and must answer
     * then, before the test lets the database back: a route that waited for the database would not
     * (a request times out after two minutes). How fast it answers is no verdict here — the machine's
     * load decides that; {@code DatabaseProbe} keeps the database's answer off the request's thread.
     */
    private static int health(String path) {
        return instance.api.get(path).status();
    }

    @Test
    void heldEventsWhoseReleaseFailedAreReleasedByTheSweep() throws Exception {
        String repo = "acme/" + UUID.randomUUID().toString().substring(0, 8);
        String session = "event:" + repo;
        rpc().result("server/pause", null);
        List<String> held = new ArrayList<>();
        try {
            for (int i = 0; i < 2; i++) {
                JsonObject answer = instance.api.postJson("/ingress/events", Json.createObjectBuilder().add("source", "ci")
                        .add("type", "ci.step").add("scope", Json.createObjectBuilder().add("repo", repo))
                        .add("subject", Json.createObjectBuilder().add("kind", "build").add("id", "b" + i)).build()
                        .toString()).json();
                assertEquals("deferred", answer.getString("status"), answer.toString());
                held.add(answer.getString("event_id"));
            }
            // The database refuses the release of these two events (and nothing else): the first
            // release, right after the resume, fails.
            sql("CREATE SEQUENCE release_fault_hits",
                    "CREATE FUNCTION fail_release() RETURNS trigger AS $$ BEGIN PERFORM nextval('release_fault_hits'); "
                            + "RAISE EXCEPTION 'injected release failure'; END $$ LANGUAGE plpgsql",
                    "CREATE TRIGGER fail_release BEFORE INSERT ON ingress_decisions FOR EACH ROW WHEN "
                            + "(NEW.type = 'forward_event' AND NEW.event_id IN ('" + String.join("','", held)
                            + "')) EXECUTE FUNCTION fail_release()");
        } finally {
            rpc().result("server/resume", null);
        }
        try {
            long deadline = System.currentTimeMillis() + 20_000;
            while (TestDatabase.count(db, "SELECT count(*) FROM pg_sequences WHERE sequencename = ? AND last_value IS NOT NULL",
                    "release_fault_hits") == 0) {
                assertTrue(System.currentTimeMillis() < deadline, "the release after the resume was never tried");
                Rpc.pause(50);
            }
            assertEquals(2, TestDatabase.count(db, "SELECT count(*) FROM ingress_events WHERE session_key = ? AND status = 'deferred'",
                    session), "the failed release left both events held");
        } finally {
            sql("DROP TRIGGER IF EXISTS fail_release ON ingress_decisions", "DROP FUNCTION IF EXISTS fail_release()",
                    "DROP SEQUENCE IF EXISTS release_fault_hits");
        }
        // No resume and no restart comes: the periodic sweep (every second here) releases them.
        long deadline = System.currentTimeMillis() + 20_000;
        List<JsonObject> runs;
        do {
            runs = instance.api.threadRuns(session);
            Rpc.pause(100);
        } while ((runs.size() < 2 || runs.stream().anyMatch(r -> "running".equals(r.getString("status"))))
                && System.currentTimeMillis() < deadline);
        assertEquals(2, runs.size(), "released and run: " + runs);
        assertTrue(runs.stream().allMatch(r -> "succeeded".equals(r.getString("status"))), runs.toString());
        assertEquals(0, TestDatabase.count(db, "SELECT count(*) FROM ingress_events WHERE session_key = ? AND status = 'deferred'",
                session));
    }

    private static Rpc rpc() {
        return new Rpc(instance.api);
    }

    private static void sql(String... statements) throws SQLException {
        try (Connection c = TestDatabase.connect(db); var s = c.createStatement()) {
            for (String statement : statements) {
                s.execute(statement);
            }
        }
    }

    private static Set<Long> logSeqs(String thread) throws Exception {
        Set<Long> seqs = new HashSet<>();
        try (var c = TestDatabase.connect(db);
                var s = c.prepareStatement("SELECT seq FROM notifications WHERE thread_key = ?")) {
            s.setString(1, thread);
            try (var rs = s.executeQuery()) {
                while (rs.next()) {
                    seqs.add(rs.getLong(1));
                }
            }
        }
        return seqs;
    }

    private static long crashes(JsonObject run) {
        return run.getInt("crashes");
    }

    /** Executed once, as attempt 1, right after the run before it: adopted, not recovered after a lease expiry. */
    private static void assertAdoptedAtOnce(JsonObject run, JsonObject before) {
        assertEquals("succeeded", run.getString("status"), run.toString());
        assertEquals(1, run.getInt("attempt"), "adopted, not recovered after its lease expired: " + run);
        assertEquals(0, crashes(run));
        long gap = LaneAssertions.millis(run, "started_at") - LaneAssertions.millis(before, "finished_at");
        assertTrue(gap < 1_500, "started " + gap + " ms after the run before it finished");
    }
}
