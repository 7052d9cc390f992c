package dev.switchboard.it;

import static dev.switchboard.it.CallTrees.node;
import static dev.switchboard.it.CallTrees.nodes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.switchboard.testkit.Await;
import dev.switchboard.testkit.EngineTrace;
import jakarta.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.ResourceAccessMode;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * Sub-agent delegation end to end on Liberty and PostgreSQL, driven by the scripted engine's call
 * directives through the jagc runs API: round trip, forks answered out of order, broadcast,
 * refusals, timeout with a late reply, depth and hop limits, self-calls, a forged sender, and cancel
 * cascading through the tree. A tree across instances — handed back by a graceful stop, finished by
 * the survivor after kill -9 mid-tree — is {@code MultiInstanceIT}'s. What each agent received is read from its own
 * answer ({@code whoami}, echoed inputs), the tree from {@code GET /v1/runs/{id}/tree}, the journal
 * from the database.
 */
@Order(6) // among the longest classes: started early in the parallel run (ear/pom.xml)
@ResourceLock(value = HostileInputIT.LOCK, mode = ResourceAccessMode.READ)
class DelegationIT {

    private static final Duration MINUTE = Duration.ofSeconds(60);
    private static final String AGENTS = "["
            + "{\"name\":\"researcher\"},"
            + "{\"name\":\"search\",\"peers\":[\"calc\"],\"capabilities\":[\"lookup\"]},"
            + "{\"name\":\"wiki\",\"peers\":[],\"capabilities\":[\"lookup\"]},"
            + "{\"name\":\"calc\",\"peers\":[]},"
            + "{\"name\":\"narrow\",\"peers\":[\"calc\"]},"
            + "{\"name\":\"secret\"},"
            + "{\"name\":\"slow\",\"timeout_ms\":1500},"
            + "{\"name\":\"deep\"}]";

    /** The instance's database (WorkspaceIT's too). */
    static final String DATABASE = HostileInputIT.DATABASE;

    private static Instance instance;
    private static Path gates;
    private static String name;

    /**
     * This class's settings on HostileInputIT's instance, which it shares with WorkspaceIT and
     * RpcPolicyIT (one Liberty start for six classes): its agents, delegation's sweep every 200 ms,
     * WorkspaceIT's workspace settings — which act only on threads that enable a workspace (none
     * of this class's) — and RpcPolicyIT's {@code collect} policy, which acts only on turns
     * {@code turn/start} opens on a thread with active turns, which neither of the others does
     * (their turns are each on a thread of their own, or messages and chat messages). The three
     * classes hold the instance's lock to read: together, but never beside the classes that pause it.
     */
    static Map<String, String> settings(Map<String, String> env) {
        WorkspaceIT.settings(env);
        env.put("SWITCHBOARD_AGENTS", AGENTS);
        env.put("SWITCHBOARD_AGENTS_SWEEP_MS", "200");
        env.put("SWITCHBOARD_LANES_FOLLOWUP_POLICY", "collect"); // RpcPolicyIT's
        return env;
    }

    /** The instance for RpcPolicyIT: its follow-up policy is {@code collect}. */
    static Instance withCollectPolicy() {
        return HostileInputIT.instance();
    }

    /** The instance for WorkspaceIT: its workspace settings are {@link WorkspaceIT#settings}. */
    static Instance withWorkspaces() {
        return HostileInputIT.instance();
    }

    static void finished(Class<?> user) {
        HostileInputIT.finished(user);
    }

    @BeforeAll
    static void start() throws Exception {
        instance = HostileInputIT.instance();
        name = instance.name;
        gates = Files.createDirectories(Path.of("target", "it", "delegation-gates").toAbsolutePath());
    }

    @AfterAll
    static void stop() {
        finished(DelegationIT.class);
    }

    private static JsonObject run(String script) {
        String runId = instance.api.message("deleg-" + UUID.randomUUID(), script).getString("run_id");
        return instance.api.awaitRun(runId, 60);
    }

    private static JsonObject tree(String runId) {
        return CallTrees.of(instance.api, runId);
    }

    private static Path gate() {
        return gates.resolve(UUID.randomUUID().toString());
    }

    @Test
    void aCallGoesDownOnePathAndItsReplyComesBackToTheCallerAsTheFinalAnswer() {
        JsonObject done = run("call researcher {call calc {2+2}; replies}; replies");
        assertEquals("succeeded", done.getString("status"), done.toString());
        assertEquals("researcher: calc: 2+2", done.getJsonObject("output").getString("text"));
        assertTrue(done.getInt("attempt") >= 2, "the caller ran again once its reply was in");

        JsonObject tree = tree(done.getString("run_id"));
        assertTrue(tree.getBoolean("delegated"));
        List<JsonObject> nodes = nodes(tree);
        assertEquals(4, nodes.size(), tree.toString());
        String root = tree.getString("session_root");
        assertTrue(root.matches("sess-[0-9a-f]{16}"), root);
        assertEquals(List.of(root, root + ".main", root + ".main.researcher", root + ".main.researcher.calc"),
                nodes.stream().map(n -> n.getString("path")).toList());
        JsonObject researcher = node(tree, ".main.researcher");
        JsonObject calc = node(tree, ".researcher.calc");
        assertEquals("main", researcher.getString("from"));
        assertEquals("researcher", calc.getString("from"));
        assertEquals(researcher.getString("path_id"), calc.getString("parent_path_id"),
                "the reply went back to the caller's own path");
        assertEquals(node(tree, ".main").getString("path_id"), researcher.getString("parent_path_id"));
        assertEquals("responded", calc.getString("status"));
        assertEquals("responded", researcher.getString("status"));
        assertEquals("completed", node(tree, ".main").getString("status"), "the final answer closed the entry path");
        assertEquals("completed", nodes.get(0).getString("status"));
        assertEquals("calc: 2+2", researcher.getString("result"));
        JsonObject call = researcher.getJsonArray("calls").getJsonObject(0);
        assertEquals("calc", call.getString("from"));
        assertEquals(calc.getString("path_id"), call.getString("path_id"));
        assertEquals(4, tree.getInt("hops"), "two calls and two replies");
        assertEquals(4, nodes.stream().map(n -> n.getString("path_id")).distinct().count(), "a UUID per path");
        assertEquals(4, journal(root, "Minted").size(), "every mint is journalled");
        assertEquals(2, journal(root, "Dispatched").size());
        assertEquals(2, journal(root, "Delivered").size());
    }

    @Test
    void aForgedSenderIsIgnoredAndASelfCallIsFlagged() {
        JsonObject forged = run("call calc {whoami} as boss; replies");
        assertEquals("calc: agent=calc from=main self=false", forged.getJsonObject("output").getString("text"));
        JsonObject self = run("call deep {call deep {whoami}; replies}; replies");
        assertEquals("deep: deep: agent=deep from=deep self=true", self.getJsonObject("output").getString("text"));
        JsonObject tree = tree(self.getString("run_id"));
        assertNotEquals(node(tree, ".main.deep").getString("path_id"), node(tree, ".deep.deep").getString("path_id"),
                "each self-call is a new path with a new UUID");
    }

    @Test
    void aForksRepliesArriveOutOfOrderAndReachTheCallerEachFromItsCallee() throws Exception {
        Path first = gate();
        String runId = instance.api.message("fork-" + UUID.randomUUID(),
                "call search {await " + first + "; A} & call search {B} & call calc {C}; replies").getString("run_id");
        Await.until(MINUTE, () -> {
            JsonObject t = tree(runId);
            return nodes(t).size() == 5 && node(t, ".main.search#2").getString("status").equals("responded")
                    && node(t, ".main.calc").getString("status").equals("responded");
        }, "the second and third children answered while the first is held");
        JsonObject waiting = tree(runId);
        assertEquals("live", node(waiting, ".main.search").getString("status"));
        assertEquals("live", node(waiting, ".main").getString("status"), "the caller still waits");
        assertEquals("running", instance.api.get("/v1/runs/" + runId).json().getString("status"));
        Files.createFile(first);
        JsonObject done = instance.api.awaitRun(runId, 60);
        assertEquals("search: A | search: B | calc: C", done.getJsonObject("output").getString("text"),
                "replies by call, whatever order they came in");
        JsonObject tree = tree(runId);
        assertNotEquals(node(tree, ".main.search").getString("path_id"), node(tree, ".main.search#2").getString("path_id"));
        JsonObject main = node(tree, ".main");
        assertEquals(List.of("search", "search", "calc"), main.getJsonArray("calls").getValuesAs(JsonObject.class).stream()
                .map(c -> c.getString("from")).toList());
    }

    @Test
    void aCapabilityServedByTwoAgentsIsBroadcastAndBothReplyWithTheirOwnFrom() {
        JsonObject done = run("call lookup {q}; replies");
        assertEquals("search: q | wiki: q", done.getJsonObject("output").getString("text"));
        JsonObject tree = tree(done.getString("run_id"));
        assertEquals("main", node(tree, ".main.search").getString("from"));
        assertEquals("main", node(tree, ".main.wiki").getString("from"));
    }

    @Test
    void aForbiddenAndAnUnknownTargetGetTheSameRoutingErrorAndTheTargetNeverReceives() {
        JsonObject done = run("call narrow {call secret {x} & call nobody {y} & call calc {z}; replies}; replies");
        String error = "SystemError{code: routing, message: Message could not be delivered.}";
        assertEquals("narrow: system: " + error + " | system: " + error + " | calc: z",
                done.getJsonObject("output").getString("text"));
        JsonObject tree = tree(done.getString("run_id"));
        assertTrue(nodes(tree).stream().noneMatch(n -> n.getString("path").endsWith(".secret")),
                "no path was made for the forbidden target: " + tree);
        List<JsonObject> calls = node(tree, ".main.narrow").getJsonArray("calls").getValuesAs(JsonObject.class);
        assertEquals(List.of("routing", "routing"), calls.subList(0, 2).stream().map(c -> c.getString("code")).toList());
        assertEquals(List.of("secret", "nobody"), calls.subList(0, 2).stream().map(c -> c.getString("to")).toList());
    }

    @Test
    void aTimeoutAnswersTheCallerOnceAndTheLateReplyIsDroppedAndJournalled() throws Exception {
        Path gate = gate();
        JsonObject done = run("call slow {await " + gate + "; late} & call calc {on time}; replies");
        assertEquals("slow: SystemError{code: timeout, message: No reply in time; retry allowed.} | calc: on time",
                done.getJsonObject("output").getString("text"));
        JsonObject tree = tree(done.getString("run_id"));
        JsonObject slow = node(tree, ".main.slow");
        assertEquals("timed_out", slow.getString("status"));
        String root = tree.getString("session_root");
        Files.createFile(gate);
        Await.until(MINUTE, () -> !journal(root, "late_reply_dropped").isEmpty(), "the late reply is journalled");
        assertEquals(slow.getString("path_id"), journal(root, "late_reply_dropped").get(0));
        assertEquals(1, node(tree(done.getString("run_id")), ".main").getJsonArray("calls").getValuesAs(JsonObject.class)
                .stream().filter(c -> "slow".equals(c.getString("to"))).count(), "one timeout, nothing more");
        assertEquals("timed_out", node(tree(done.getString("run_id")), ".main.slow").getString("status"),
                "a late reply never reopens a path");
    }

    @Test
    void aPathLongerThanSixteenAndMoreThanFiftyHopsAreRefusedWithDepthErrors() {
        String script = "whoami";
        for (int i = 0; i < 16; i++) {
            script = "call deep {" + script + "}; replies";
        }
        JsonObject deep = run(script);
        String text = deep.getJsonObject("output").getString("text");
        assertTrue(text.endsWith("system: SystemError{code: depth, message: Delegation depth limit reached.}"), text);
        assertEquals(15, text.split("deep: ", -1).length - 1, "fifteen calls below the entry path went through");
        int deepest = nodes(tree(deep.getString("run_id"))).stream().mapToInt(n -> n.getInt("depth")).max().orElseThrow();
        assertEquals(16, deepest);

        String fork = java.util.stream.IntStream.range(0, 51).mapToObj(i -> "call calc {" + i + "}")
                .collect(Collectors.joining(" & ")) + "; replies";
        String hops = run(fork).getJsonObject("output").getString("text");
        assertEquals(50, hops.split("calc: ", -1).length - 1, hops);
        assertTrue(hops.endsWith("system: SystemError{code: depth, message: Delegation hop limit reached.}"), hops);
    }

    @Test
    void aHandlerFailureAndAnEmptyReplyReachTheCallerAndTheEntryAnsweringNothingIsIncomplete() {
        JsonObject done = run("call calc {fail boom} & call calc {silent}; replies");
        assertEquals("calc: SystemError{code: handler, message: The handler failed.} | calc: ack",
                done.getJsonObject("output").getString("text"));
        JsonObject incomplete = run("call calc {1}; silent");
        assertEquals("failed", incomplete.getString("status"));
        assertEquals("incomplete", incomplete.getJsonObject("error").getString("code"), incomplete.toString());
    }

    @Test
    void cancellingTheOuterRunCancelsEveryLivePathBelowIt() throws Exception {
        Path gate = gate();
        String thread = "cancel-" + UUID.randomUUID();
        String runId = instance.api.message(thread, "call researcher {call calc {await " + gate + "; never}; replies}; replies")
                .getString("run_id");
        Await.until(MINUTE, () -> nodes(tree(runId)).size() == 4, "the tree reached calc");
        String calcRun = runOf(node(tree(runId), ".researcher.calc").getString("path_id"));
        Await.until(MINUTE, () -> trace().callsOf(calcRun).stream().anyMatch(c -> c.outcome() == null),
                "calc executes");
        Api.Reply cancel = instance.api.postJson("/v1/threads/" + thread + "/cancel", "{}");
        assertEquals(200, cancel.status(), cancel.body());
        Await.until(MINUTE, () -> nodes(tree(runId)).stream().noneMatch(n -> n.getString("status").equals("live")),
                "every path closed");
        JsonObject tree = tree(runId);
        assertEquals("cancelled", node(tree, ".main.researcher").getString("status"));
        assertEquals("cancelled", node(tree, ".researcher.calc").getString("status"));
        assertEquals("cancelled", node(tree, ".main").getString("status"));
        assertEquals("cancelled", nodes(tree).get(0).getString("status"), "the root closes as its unit of work ended");
        Await.until(MINUTE, () -> trace().callsOf(calcRun).stream().allMatch(c -> "cancelled".equals(c.outcome())),
                "calc's engine was stopped");
        Files.createFile(gate);
    }

    @Test
    void everyHopIsANotificationOnTheOuterThreadAndTheTreeIsReadOverRpc() {
        Rpc rpc = new Rpc(instance.api);
        String thread = "rpc-" + UUID.randomUUID();
        try (Rpc.Stream stream = rpc.stream(null, thread)) {
            String turnId = rpc.startTurnId(thread, "call researcher {call calc {7}; replies}; replies");
            JsonObject turn = rpc.awaitTurnEnd(turnId, MINUTE);
            List<JsonObject> hops = stream.inbox.awaitCount(n -> "delegation/hop".equals(n.getString("method", "")), 4, MINUTE)
                    .stream().map(n -> n.getJsonObject("params")).toList();
            assertEquals(List.of("dispatched:main>researcher", "dispatched:researcher>calc", "replied:calc>researcher",
                    "replied:researcher>main"), hops.stream().map(h -> h.getString("kind") + ":" + h.getString("from") + ">"
                            + h.getString("to")).toList());
            assertTrue(hops.stream().noneMatch(h -> h.toString().contains("sess-")), "clients see opaque ids only: " + hops);
            String runId = hops.get(0).getString("run_id");
            JsonObject tree = rpc.result("run/tree", Rpc.obj("run_id", runId));
            assertEquals(hops.get(1).getString("path_id"), node(tree, ".researcher.calc").getString("path_id"));
            assertTrue(turn.toString().contains("researcher: calc: 7"), turn.toString());
        }
    }

    @Test
    void interruptingTheOuterTurnCancelsTheTree() throws Exception {
        Rpc rpc = new Rpc(instance.api);
        Path gate = gate();
        String thread = "interrupt-" + UUID.randomUUID();
        String turnId = rpc.startTurnId(thread, "call researcher {call calc {await " + gate + "; never}; replies}; replies");
        String runId = instance.api.threadRuns(thread).get(0).getString("run_id");
        Await.until(MINUTE, () -> nodes(tree(runId)).size() == 4
                && !trace().callsOf(runOf(node(tree(runId), ".researcher.calc").getString("path_id"))).isEmpty(),
                "calc executes");
        String calcRun = runOf(node(tree(runId), ".researcher.calc").getString("path_id"));
        rpc.result("turn/interrupt", Rpc.obj("turn_id", turnId, "reason", "enough"));
        Await.until(MINUTE, () -> nodes(tree(runId)).stream().allMatch(n -> n.getString("status").equals("cancelled")),
                "every path of the tree cancelled");
        Await.until(MINUTE, () -> trace().callsOf(calcRun).stream().allMatch(c -> "cancelled".equals(c.outcome())),
                "calc's engine was stopped");
        Files.createFile(gate);
    }

    @Test
    void theTreeIsTheCallersOnlyARunWithoutDelegationHasNoneAndNoClientReachesAPath() {
        JsonObject plain = run("just text");
        JsonObject tree = tree(plain.getString("run_id"));
        assertFalse(tree.getBoolean("delegated"));
        assertEquals(0, nodes(tree).size());
        assertEquals(404, instance.api.get("/v1/runs/" + UUID.randomUUID() + "/tree").status());

        JsonObject delegated = run("call calc {x}; replies");
        JsonObject calc = node(tree(delegated.getString("run_id")), ".main.calc");
        String calcRun = runOf(calc.getString("path_id"));
        assertEquals(404, instance.api.get("/v1/runs/" + calcRun).status(), "a path's run belongs to no user");
        assertEquals(404, instance.api.get("/v1/runs/" + calcRun + "/tree").status());
        JsonObject posed = run("call calc {y}; whoami"); // a thread named like a path is the user's own thread
        String key = calc.getString("path_id");
        JsonObject own = instance.api.awaitRun(instance.api.message(key, "hello").getString("run_id"), 60);
        assertEquals("hello", own.getJsonObject("output").getString("text"));
        assertEquals(1, TestDatabase.count(DATABASE, "SELECT count(*) FROM runs WHERE thread_key = ? AND user_key = '~agents'", key),
                "the path's lane still holds only its call");
        assertEquals("agent=main from=null self=false", posed.getJsonObject("output").getString("text"));
    }

    private static EngineTrace trace() {
        return EngineTrace.readDir(Instance.journalDir()).only(c -> name.equals(c.instance()));
    }

    /** The run handling a path. */
    private static String runOf(String pathId) {
        return CallTrees.runOf(DATABASE, pathId);
    }

    /** The path ids the journal of tree {@code root} holds records of {@code status} for, oldest first. */
    private static List<String> journal(String root, String status) {
        try (Connection c = TestDatabase.connect(DATABASE); PreparedStatement s = c.prepareStatement(
                "SELECT uuid FROM path_journal WHERE session_root = ? AND status = ? ORDER BY ts, msg_id")) {
            s.setString(1, root);
            s.setString(2, status);
            List<String> ids = new ArrayList<>();
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    ids.add(rs.getString(1));
                }
            }
            return ids;
        } catch (java.sql.SQLException e) {
            throw new AssertionError(e);
        }
    }
}
