package dev.switchboard.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.switchboard.testkit.Await;
import dev.switchboard.testkit.EngineTrace;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Instances on one PostgreSQL database: shared lanes under load, one timer on A and B ticking once
 * per bucket and a dedupe key taken on one being taken on the other, a graceful stop handing unfinished
 * runs (and a call tree under way) back at once, a crashed owner's run and call tree recovered by the
 * survivor (a crashed instance's own next
 * start finishing what it had queued is a rule of the lane, held in-process by
 * {@code LaneOnDatabaseTest}); one log journal and one instance list for all of them; and owners that are
 * alive but late — one frozen past its lease (SIGSTOP) is taken over, and when it goes on (SIGCONT)
 * its engine stops before doing any more work and its result is fenced out; an instance whose clock
 * runs 30 s ahead takes no live lease. Overlap is observed in the engines' own journals, which the
 * instances stamp with the machine's clock.
 *
 * <p>A and B have the test leases of {@link Instance#defaults} (5 s, renewed every second, lanes
 * polled every half second): the recoveries and takeovers below wait for one lease, and the skew
 * test's runs on A outlive it twice. B dies in the chaos run; C, started then, has its clock 30 s
 * ahead and a 120 s lease. Lease rules read the database's clock, so everything after holds with C
 * skewed; but run times are each instance's own clock (docs/architecture.md), so the checks that
 * compare run times across instances — the load test's "no run started before the previous one
 * finished", the hand-back's delay after the stop — compare A's and B's, or A's alone.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Order(2) // among the longest classes: started early in the parallel run (ear/pom.xml)
class MultiInstanceIT {

    private static final Duration THIRTY_SECONDS = Duration.ofSeconds(30);
    private static final int PORT_A = 9182;
    private static final int PORT_B = 9183;
    private static final int PORT_C = 9186;
    /** The repository of the instances' timer. */
    private static final String CLOCK_REPO = "acme/clock";
    private static Instance a;
    private static Instance b;
    private static boolean bKilled;
    /** Started after B's death: its clock 30 s ahead, its lease 120 s. */
    private static Instance c;
    private static boolean cStopped;
    private static String db;
    /** The instances' workspace root, one for all of them as in a deployment (a shared volume). */
    private static Path workspaces;

    @BeforeAll
    static void start() {
        db = TestDatabase.recreate("switchboard_it_multi");
        workspaces = Path.of(System.getProperty("it.work.dir", "target/it")).toAbsolutePath().resolve("multi-workspaces");
        dev.switchboard.testkit.Trees.delete(workspaces);
        a = Instance.start("it-a", PORT_A, settings(PORT_A, "it-a"));
        b = Instance.start("it-b", PORT_B, settings(PORT_B, "it-b"));
    }

    /** The test defaults and the agents the call trees below are made of. */
    private static Map<String, String> settings(int port, String name) {
        Map<String, String> env = Instance.defaults(db, port, name);
        env.put("SWITCHBOARD_AGENTS", "[{\"name\":\"calc\",\"peers\":[]},{\"name\":\"search\",\"peers\":[]}]");
        env.put("SWITCHBOARD_AGENTS_SWEEP_MS", "200");
        // A caller waits longer than its default 30 s: a hop held across a kill -9 must not time out
        // while the survivor waits for the dead owner's lease on a slow machine.
        env.put("SWITCHBOARD_AGENTS_TIMEOUT_MS", "180000");
        env.put("SWITCHBOARD_WORKSPACE_ROOT", workspaces.toString());
        env.put("SWITCHBOARD_WORKSPACE_TOOLS", "all");
        // One timer every 2 s on every instance, its ticks a user's of their own (not the API's "local").
        env.put("SWITCHBOARD_INGRESS_TICK_INTERVAL", "2s");
        env.put("SWITCHBOARD_INGRESS_TICK_REPOS", CLOCK_REPO);
        env.put("SWITCHBOARD_INGRESS_USER", "clock");
        return env;
    }

    /**
     * C's settings: it believes it is 30 s later than the database and A, and its lease is 120 s — a
     * crash would keep its runs for two minutes, so what its graceful stop hands back is not a lease
     * running out.
     */
    private static Map<String, String> skewedC() {
        Map<String, String> env = settings(PORT_C, "it-c");
        env.put("SWITCHBOARD_CLOCK_OFFSET_MS", "30000");
        env.put("SWITCHBOARD_LANES_LEASE_MS", "120000");
        env.remove("SWITCHBOARD_INGRESS_TICK_INTERVAL"); // its clock ahead, it would tick buckets still to come
        return env;
    }

    @AfterAll
    static void stop() {
        if (c != null && !cStopped) {
            c.stop();
        }
        if (b != null && !bKilled) {
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

    /**
     * Both instances have fired the same 2-second timer since they started: each bucket ran once
     * (its dedupe key lets one tick through, whichever instance fires first), and one run per tick.
     * An event's dedupe key taken on one instance is taken on the other (it lives in the database,
     * so it outlives any instance: what a restart of every instance showed before).
     */
    @Test
    @Order(2)
    void twoInstancesTickOncePerBucketAndShareDedupeKeys() throws InterruptedException {
        Await.until(THIRTY_SECONDS, () -> timerBuckets().values().stream().filter(n -> n == 1).count() >= 3,
                "three timer ticks run");
        Map<String, Integer> acceptedPerBucket = timerBuckets();
        acceptedPerBucket.forEach((key, n) -> assertTrue(n <= 1, "bucket " + key + " ran " + n + " times"));
        assertEquals(0, TestDatabase.count(db, "SELECT (SELECT count(*) FROM runs WHERE thread_key = 'event:' || x.repo)"
                + " - (SELECT count(*) FROM ingress_events WHERE source = 'timer' AND status = 'accepted'"
                + " AND repo = x.repo) FROM (SELECT CAST(? AS text) AS repo) x", CLOCK_REPO), "one run per accepted tick");

        String repo = "acme/" + UUID.randomUUID().toString().substring(0, 8);
        String event = Json.createObjectBuilder().add("source", "ci").add("type", "ci.once")
                .add("scope", Json.createObjectBuilder().add("repo", repo)).add("dedupe_key", repo + ":once").build().toString();
        Api.Reply first = a.api.postJson("/ingress/events", event);
        assertEquals(202, first.status(), first.body());
        assertEquals("accepted", first.json().getString("status"));
        Api.Reply again = b.api.postJson("/ingress/events", event);
        assertEquals(202, again.status(), again.body());
        assertEquals("duplicate", again.json().getString("status"), "the key taken on A is taken on B");
        assertEquals(first.json().getString("run_id"), again.json().getString("run_id"));
    }

    /** The crashes of the timer's runs so far (a tick's run taken over counts one). */
    private static long tickRunCrashes() {
        return TestDatabase.count(db, "SELECT coalesce(sum(crashes), 0) FROM runs WHERE thread_key = 'event:' || ?", CLOCK_REPO);
    }

    /** Accepted timer ticks per bucket key (0 for a bucket whose ticks were all duplicates). */
    private static Map<String, Integer> timerBuckets() {
        Map<String, Integer> counts = new TreeMap<>();
        try (Connection c = TestDatabase.connect(db); PreparedStatement s = c.prepareStatement(
                "SELECT dedupe_key, count(*) FILTER (WHERE status = 'accepted') FROM ingress_events"
                        + " WHERE source = 'timer' AND repo = ? GROUP BY dedupe_key")) {
            s.setString(1, CLOCK_REPO);
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    counts.put(rs.getString(1), rs.getInt(2));
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
        return counts;
    }

    /** A workspace thread's turns on A, then B, then A again: each starts from the commit of the one before. */
    @Test
    @Order(3)
    void twoInstancesSharingTheWorkspaceRootCarryOnOneThreadsLine() {
        String thread = WorkspaceCalls.enable(a.api, "ws-two-");
        JsonObject onA = a.api.awaitRun(a.api.message(thread, "tool write_file {\"path\":\"a.txt\",\"content\":\"from A\"}")
                .getString("run_id"), 60);
        // the instance a message is posted to claims an idle lane in the same transaction: B runs it
        String runId = b.api.message(thread, "tool read_file {\"path\":\"a.txt\"}; tool write_file"
                + " {\"path\":\"b.txt\",\"content\":\"from B\"}").getString("run_id");
        JsonObject onB = b.api.awaitRun(runId, 60);
        assertEquals("read_file: from A\nwrite_file: wrote 6 bytes to b.txt", onB.getJsonObject("output").getString("text"));
        JsonObject change = onB.getJsonObject("output").getJsonObject("workspace");
        assertEquals(onA.getJsonObject("output").getJsonObject("workspace").getString("commit"), change.getString("base"),
                "B's turn started from A's commit");
        assertEquals(List.of("b.txt A"), WorkspaceCalls.files(change));
        assertTrue(EngineTrace.readDir(Instance.journalDir()).callsOf(runId).stream().allMatch(c -> c.instance().equals("it-b")),
                "B ran it");
        JsonObject again = a.api.awaitRun(a.api.message(thread, "tool list_files {}").getString("run_id"), 60);
        assertEquals("list_files: a.txt\nb.txt", again.getJsonObject("output").getString("text"), "A the next, on B's commit");
        assertTrue(EngineTrace.readDir(Instance.journalDir()).callsOf(again.getString("run_id")).stream()
                .allMatch(c -> c.instance().equals("it-a")), "A ran the next one");
    }

    /**
     * The chaos run: B dies (kill -9) while it executes a run, a hop of a call tree and a workspace
     * turn. A, the survivor, recovers each once B's lease has expired (the tree finishes with the same
     * path ids, no answered hop executed again; the turn runs again on a clean tree) and lists B's
     * start as late; what B wrote to the log journal before it died outlives it. Then C joins, 30 s
     * ahead, for the tests that follow: every instance killed costs a Liberty start to replace.
     */
    @Test
    @Order(4)
    void aDeadOwnersWorkIsFinishedOnceByTheSurvivorAndTheLogJournalAndInstanceListOutliveIt()
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

        String thread = "crash-" + UUID.randomUUID();
        Path gate = gates().resolve(thread); // held until B is dead: its attempt cannot finish first
        JsonObject slow = b.api.message(thread, "await " + gate + "; survived");
        JsonObject next = b.api.message(thread, "after");
        String runId = slow.getString("run_id");
        awaitState(b.api, runId, "executing");

        // And a call tree mid-way on B: calc has answered, search is held. A is frozen meanwhile, so
        // that B (to which the tree is posted, and which wakes its children first) runs every hop.
        Path treeGate = gates().resolve("tree-" + thread);
        String treeRun;
        a.pause();
        try {
            treeRun = b.api.message("tree-" + thread, "call calc {A} & call search {await " + treeGate + "; B}; replies")
                    .getString("run_id");
            Await.until(THIRTY_SECONDS, () -> {
                JsonObject t = CallTrees.of(b.api, treeRun);
                return CallTrees.nodes(t).size() == 4 && "responded".equals(CallTrees.node(t, ".main.calc").getString("status"))
                        && !EngineTrace.readDir(Instance.journalDir()).callsOf(CallTrees.runOf(db,
                                CallTrees.node(t, ".main.search").getString("path_id"))).isEmpty();
            }, "calc answered and search executes on B");
        } finally {
            a.resume();
        }
        // And a workspace turn held on B after writing half of its work (posted to B: B claims the idle lane).
        String wsThread = WorkspaceCalls.enable(b.api, "ws-kill-");
        b.api.awaitRun(b.api.message(wsThread, "tool write_file {\"path\":\"kept.txt\",\"content\":\"kept\"}")
                .getString("run_id"), 60);
        String wsRun = b.api.message(wsThread, "tool list_files {}; tool write_file {\"path\":\"half.txt\",\"content\":\"half\"};"
                + " await " + treeGate + "-ws").getString("run_id");
        Await.until(THIRTY_SECONDS, () -> WorkspaceCalls.worktrees(workspaces).stream().anyMatch(w -> Files.exists(w.resolve("half.txt"))),
                "the workspace turn's first attempt has written half.txt");
        Path killedTree = WorkspaceCalls.worktrees(workspaces).stream().filter(w -> Files.exists(w.resolve("half.txt")))
                .findFirst().orElseThrow();

        JsonObject treeBefore = CallTrees.of(b.api, treeRun);
        String searchRun = CallTrees.runOf(db, CallTrees.node(treeBefore, ".main.search").getString("path_id"));
        String calcRun = CallTrees.runOf(db, CallTrees.node(treeBefore, ".main.calc").getString("path_id"));
        b.kill();
        bKilled = true;
        Files.createFile(gate);
        Files.createFile(treeGate);
        Files.createFile(Path.of(treeGate + "-ws"));

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

            // The tree: finished by A with the same paths under the same ids; calc's answered hop not
            // executed again, search's cut one executed again and completed once.
            JsonObject tree = a.api.awaitRun(treeRun, 90);
            assertEquals("calc: A | search: B", tree.getJsonObject("output").getString("text"), tree.toString());
            assertEquals(CallTrees.pathIds(treeBefore), CallTrees.pathIds(CallTrees.of(a.api, treeRun)),
                    "the same paths with the same ids");
            EngineTrace calls = EngineTrace.readDir(Instance.journalDir());
            assertEquals(1, calls.callsOf(calcRun).size(), "calc's hop was not executed again: " + calls.callsOf(calcRun));
            assertEquals(List.of("it-b", "it-a"), calls.callsOf(searchRun).stream()
                    .sorted(java.util.Comparator.comparingLong(EngineTrace.Call::start)).map(EngineTrace.Call::instance).toList(),
                    "search cut on B, then executed by A");
            assertEquals(1, calls.callsOf(searchRun).stream().filter(EngineTrace.Call::completed).count(),
                    "search completed once");

            // The workspace turn: run again by A on a clean tree (the head's files only), the killed
            // attempt's worktree removed, none left, completed once.
            JsonObject ws = a.api.awaitRun(wsRun, 90);
            assertEquals("succeeded", ws.getString("status"), ws.toString());
            assertEquals("list_files: kept.txt\nwrite_file: wrote 4 bytes to half.txt", ws.getJsonObject("output").getString("text"),
                    "the re-execution saw the head's files only");
            assertEquals(List.of("half.txt A"), WorkspaceCalls.files(ws.getJsonObject("output").getJsonObject("workspace")));
            assertFalse(Files.exists(killedTree), "the killed attempt's worktree was removed");
            assertEquals(List.of(), WorkspaceCalls.worktrees(workspaces), "no worktree is left once the turns ended");
            List<EngineTrace.Call> wsCompleted = EngineTrace.readDir(Instance.journalDir()).callsOf(wsRun).stream()
                    .filter(EngineTrace.Call::completed).toList();
            assertEquals(1, wsCompleted.size(), "the workspace turn completed once");
            assertEquals("it-a", wsCompleted.get(0).instance(), "on A, after B's kill");
        } finally {
            // C joins (one Liberty start, as bringing B back would be) with its clock 30 s ahead, for the
            // late-owner tests below. Also when a check above failed: the tests after this one need it.
            c = Instance.start("it-c", PORT_C, skewedC());
        }
        List<JsonObject> joined = instances(new Rpc(a.api));
        assertTrue(joined.stream().anyMatch(i -> i.getString("instance").equals("it-c") && i.getString("state").equals("up")),
                "C is up: " + joined);
        List<JsonObject> seenFromC = logs(new Rpc(c.api));
        assertTrue(seenFromC.contains(paused), "the entry B wrote outlives B, read by an instance started after it: " + seenFromC);
        assertTrue(seenFromC.stream().anyMatch(e -> e.getString("instance").equals("it-c")
                && e.getString("message").equals("Log journal attached")), "C's own lines beside them");
    }

    /**
     * C is 30 s ahead: were a lease judged by the instance's clock, C would see every lease of A's
     * expired and take it.
     */
    @Test
    @Order(5)
    void anInstanceWhoseClockIsAheadTakesNoLiveLease() throws Exception {
        String prefix = "skew-" + UUID.randomUUID() + "-";
        List<String> onA = new ArrayList<>();
        List<String> onC = new ArrayList<>();
        List<String> followUps = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            // Each of A's outlives its lease (5 s) twice over: only renewals keep it. C (30 s ahead) polls
            // every half second, and a follow-up posted to C makes C try to claim the lane while A holds it.
            onA.add(a.api.message(prefix + "a" + i, "sleep 11000; from a").getString("run_id"));
            followUps.add(c.api.message(prefix + "a" + i, "after").getString("run_id"));
            onC.add(c.api.message(prefix + "c" + i, "sleep 11000; from c").getString("run_id"));
        }
        for (String runId : onA) {
            assertFirstAttemptOn(runId, "it-a");
        }
        for (String runId : onC) {
            assertFirstAttemptOn(runId, "it-c");
        }
        for (String runId : followUps) {
            assertEquals(1, a.api.awaitRun(runId, 60).getInt("attempt"));
        }
        EngineTrace trace = EngineTrace.readDir(Instance.journalDir()).only(c -> c.thread().contains(prefix));
        assertEquals(12, trace.calls().size(), "one engine call per run: " + trace.calls());
        assertEquals(List.of(), trace.overlaps());
    }

    /**
     * A frozen past its lease is taken over by C (30 s ahead), which waits for the lease by the
     * database's clock. SIGSTOP may freeze an owner inside a transaction that holds the
     * lane's lock (a renewal): PostgreSQL ends such a session after a while (see DatabaseFaultsIT).
     */
    @Test
    @Order(6)
    void aFrozenOwnerIsTakenOverAndWhenItGoesOnItStopsWithoutDoingMoreWork() throws Exception {
        String thread = "frozen-" + UUID.randomUUID();
        Scrape takeoversBefore = Scrape.of(c.api);
        long tickCrashesBefore = tickRunCrashes();
        String runId = a.api.message(thread, "sleep 5000; survived").getString("run_id");
        Await.until(THIRTY_SECONDS, () -> a.api.isExecuting(runId, 1), "attempt 1 executes on A");

        a.pause();
        try {
            Await.until(THIRTY_SECONDS, () -> c.api.isExecuting(runId, 2), "C takes the run over once A's lease expires");
        } finally {
            a.resume();
        }
        JsonObject done = c.api.awaitRun(runId, 60);
        assertEquals("succeeded", done.getString("status"), done.toString());
        assertEquals(2, done.getInt("attempt"));
        assertEquals(1, done.getInt("crashes"), "the frozen owner's lost lease counts as a crash");
        // A timer tick running on A when it froze is taken over by C too: counted, as C's, beside this run's.
        assertEquals(1.0 + tickRunCrashes() - tickCrashesBefore,
                Scrape.of(c.api).delta(takeoversBefore, "switchboard_lease_takeovers_total", l -> true),
                "C counts the takeover in its metrics");
        assertEquals("survived", done.getJsonObject("output").getString("text"));

        Await.until(THIRTY_SECONDS, () -> trace(thread).callsOf(runId).stream().allMatch(c -> c.outcome() != null),
                "both engine calls have ended");
        List<EngineTrace.Call> calls = trace(thread).callsOf(runId);
        assertEquals(2, calls.size(), calls.toString());
        assertEquals("it-a", calls.get(0).instance());
        assertEquals("cancelled", calls.get(0).outcome(), "A's engine stopped when A went on: " + calls);
        assertEquals("it-c", calls.get(1).instance());
        assertEquals("completed", calls.get(1).outcome());
        assertEquals(List.of(), trace(thread).overlaps(), "no two engine calls of the thread at work at once");
        TestDatabase.awaitStamped(db, thread);
        assertEquals(1, TestDatabase.count(db, "SELECT count(*) FROM notifications WHERE thread_key = ? "
                + "AND method = 'turn/completed'", thread), "the turn completed once: A's late result was fenced out");
        JsonObject again = a.api.get("/v1/runs/" + runId).json();
        assertEquals("survived", again.getJsonObject("output").getString("text"));
        assertEquals(2, again.getInt("attempt"), "A changed nothing after it went on");
    }

    /**
     * Last: C stops gracefully with a run executing and a call tree under way — the tree's outer run
     * was C's, its children held on whichever instance claimed them: A takes everything up at once
     * (no lease to wait for: C's is two minutes), and each child completes once.
     */
    @Test
    @Order(7)
    void aGracefulStopHandsUnfinishedRunsAndATreeUnderWayBackAtOnce() throws Exception {
        String thread = "handback-" + UUID.randomUUID();
        // Held at its step until C has stopped (not for a time, which a slow stop could outlast and
        // let the run finish on C): the stop can only hand it back.
        Path gate = gates().resolve(thread);
        String runId = c.api.message(thread, "await " + gate + "; handed back").getString("run_id");
        Path treeGate = gates().resolve("tree-" + thread);
        String treeRun = c.api.message("moved-" + UUID.randomUUID(), "call calc {await " + treeGate + "; one}"
                + " & call search {await " + treeGate + "; two}; replies").getString("run_id");
        awaitState(c.api, runId, "executing");
        // The children run on whichever instance claims their lanes first (C wakes them, A polls).
        Await.until(THIRTY_SECONDS, () -> {
            JsonObject t = CallTrees.of(a.api, treeRun);
            return CallTrees.nodes(t).size() == 4 && CallTrees.nodes(t).stream().filter(n -> n.getInt("depth") == 2)
                    .allMatch(n -> !EngineTrace.readDir(Instance.journalDir()).callsOf(CallTrees.runOf(db,
                            n.getString("path_id"))).isEmpty());
        }, "both children of the tree execute");
        c.stop();
        cStopped = true;
        Files.createFile(gate);
        Files.createFile(treeGate);

        JsonObject tree = a.api.awaitRun(treeRun, 60);
        assertEquals("calc: one | search: two", tree.getJsonObject("output").getString("text"), tree.toString());
        List<EngineTrace.Call> outer = EngineTrace.readDir(Instance.journalDir()).callsOf(treeRun).stream()
                .sorted(java.util.Comparator.comparingLong(EngineTrace.Call::start)).toList();
        assertEquals("it-c", outer.get(0).instance(), "the tree started on C");
        assertEquals("it-a", outer.get(outer.size() - 1).instance(), "and ended on A");
        for (JsonObject child : CallTrees.nodes(CallTrees.of(a.api, treeRun)).stream().filter(n -> n.getInt("depth") == 2)
                .toList()) {
            assertEquals(1, EngineTrace.readDir(Instance.journalDir()).callsOf(CallTrees.runOf(db, child.getString("path_id")))
                    .stream().filter(EngineTrace.Call::completed).count(), "each child completed once: " + child);
        }

        // A takes it up: its clock is the machine's, so started_at is comparable with the test's own.
        JsonObject done = a.api.awaitRun(runId, 60);
        assertEquals("succeeded", done.getString("status"), done.toString());
        assertEquals(2, done.getInt("attempt"));
        // Taken up after the stop, not after the lease: a run recovered from an expired lease counts a crash.
        assertEquals(0, done.getInt("crashes"), "a hand-back is not a crash");
        List<JsonObject> cluster = instances(new Rpc(a.api));
        assertTrue(cluster.stream().anyMatch(i -> i.getString("instance").equals("it-c") && i.getString("state").equals("stopped")
                && !i.isNull("stopped_at")), "the gracefully stopped instance: " + cluster);
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
