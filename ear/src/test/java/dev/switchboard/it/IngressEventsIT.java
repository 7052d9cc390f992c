package dev.switchboard.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.parallel.ResourceAccessMode;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * Generic events, GitHub passthrough, the records API, requeue and pause deferral, over the wire as
 * a user of the shared authenticated instance: the pause, the main thread and the processed count
 * are that user's, so nobody else's work is held up or seen. Timer ticks on two instances and a
 * tick after every instance was down are {@code MultiInstanceIT}'s and {@code TimerTickerTest}'s.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@ResourceLock(value = SharedInstance.AUTH_LOCK, mode = ResourceAccessMode.READ)
class IngressEventsIT {

    private static final String TOKEN = SharedInstance.INGRESS_USER_TOKEN;
    private static String db;
    private static Api api;
    private static Rpc rpc;

    @BeforeAll
    static void start() {
        api = SharedInstance.authenticated().api.as(TOKEN);
        db = SharedInstance.authDatabase();
        rpc = new Rpc(api);
    }

    private static RpcSocket subscribed(JsonObject params) {
        return RpcSocket.subscribed(SharedInstance.AUTH_PORT, params, "Authorization", "Bearer " + TOKEN);
    }

    private static String lane() {
        return "acme/" + UUID.randomUUID().toString().substring(0, 8);
    }

    private static JsonObject event(String repo, String type, JsonObjectBuilder payload) {
        JsonObjectBuilder e = Json.createObjectBuilder().add("source", "ci").add("type", type)
                .add("scope", Json.createObjectBuilder().add("repo", repo))
                .add("subject", Json.createObjectBuilder().add("kind", "build").add("id", UUID.randomUUID().toString()));
        if (payload != null) {
            e.add("payload", payload);
        }
        return e.build();
    }

    private static Api.Reply post(String path, String body) {
        return api.postJson(path, body);
    }

    private static JsonObject accepted(JsonObject event) {
        Api.Reply r = post("/ingress/events", event.toString());
        assertEquals(202, r.status(), r.body());
        return r.json();
    }

    private static long count(String sql, String value) {
        return TestDatabase.count(db, sql, value);
    }

    private static List<JsonObject> all(String path) {
        List<JsonObject> out = new ArrayList<>();
        String cursor = null;
        while (true) {
            String sep = path.contains("?") ? "&" : "?";
            Api.Reply r = api.get(path + (cursor == null ? "" : sep + "cursor=" + cursor));
            assertEquals(200, r.status(), r.body());
            r.json().getJsonArray("data").forEach(v -> out.add(v.asJsonObject()));
            if (r.json().isNull("next_cursor")) {
                return out;
            }
            cursor = r.json().getString("next_cursor");
        }
    }

    private static String q(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }

    @Test
    @Order(1)
    void aGenericEventRunsInItsLaneAndBadEnvelopesLeaveNothing() {
        String repo = lane();
        JsonObject answer = accepted(event(repo, "ci.build.failed", Json.createObjectBuilder().add("build", 12)));
        assertEquals("accepted", answer.getString("status"));
        assertEquals("event:" + repo, answer.getString("session_key"));
        JsonObject run = api.awaitRun(answer.getString("run_id"), 30);
        assertEquals("succeeded", run.getString("status"), run.toString());
        assertEquals("ingress:ci", run.getString("source"));

        String[][] bad = {
            {"{\"source\":\"ci\",\"scope\":{\"repo\":\"" + repo + "\"}}", "400", "invalid_event"},
            {"{\"source\":\"ci\",\"type\":\"x\",\"at\":\"yesterday\",\"scope\":{\"repo\":\"" + repo + "\"}}", "400",
                "invalid_event"},
            {"{\"source\":\"ci\",\"type\":\"x\",\"scope\":\"" + repo + "\"}", "400", "invalid_event"},
            {"[1,2]", "400", "invalid_json"},
            {"{\"source\":", "400", "invalid_json"},
            {"", "400", "empty_body"},
            {"{\"source\":\"ci\",\"type\":\"x\",\"scope\":{\"repo\":\"" + repo + "\"},\"payload\":\""
                + "y".repeat(70_000) + "\"}", "413", "payload_too_large"},
        };
        for (String[] c : bad) {
            Api.Reply r = post("/ingress/events", c[0]);
            assertEquals(Integer.parseInt(c[1]), r.status(), r.body());
            assertEquals(c[2], r.errorCode(), r.body());
        }
        assertEquals(1, count("SELECT count(*) FROM ingress_events WHERE repo = ?", repo), "only the valid event");
        for (String path : new String[] {"/ingress/events", "/ingress/github/webhook", "/webhook"}) {
            Api.Reply wrongMethod = api.get(path);
            assertEquals(405, wrongMethod.status(), path + ": " + wrongMethod.body());
            assertEquals("method_not_allowed", wrongMethod.errorCode());
        }

        JsonObject again = accepted(event(repo, "ci.build.failed", null));
        assertEquals("accepted", again.getString("status"), "another subject id is another event");
        JsonObject same = Json.createObjectBuilder(event(repo, "ci.build.failed", null))
                .add("dedupe_key", "ci:" + repo + ":once").build();
        assertEquals("accepted", accepted(same).getString("status"));
        assertEquals("duplicate", accepted(same).getString("status"));
    }

    @Test
    @Order(2)
    void anEnvelopePostedToTheGithubPathPassesThrough() {
        String repo = lane();
        Api.Reply r = api.postJson("/ingress/github/webhook", event(repo, "deploy.finished", null).toString(),
                "X-GitHub-Event", "deployment");
        assertEquals(202, r.status(), r.body());
        assertEquals("accepted", r.json().getString("status"));
        JsonObject recorded = all("/v1/events?session_key=" + q("event:" + repo)).get(0);
        assertEquals("ci", recorded.getString("source"));
        assertEquals("deploy.finished", recorded.getString("type"));
    }

    @Test
    @Order(3)
    void recordsPageByCursorFilterByKeyAndExportAsNdjson() {
        String repo = lane();
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            ids.add(accepted(event(repo, "ci.step." + i, null)).getString("event_id"));
        }
        String session = q("event:" + repo);
        Api.Reply first = api.get("/v1/events?session_key=" + session + "&limit=2");
        assertEquals(200, first.status(), first.body());
        assertEquals(2, first.json().getJsonArray("data").size());
        assertFalse(first.json().isNull("next_cursor"));
        List<JsonObject> events = all("/v1/events?limit=2&session_key=" + session);
        assertEquals(ids, events.stream().map(e -> e.getString("id")).toList(), "every event once, in arrival order");
        for (JsonObject e : events) {
            assertEquals("accepted", e.getString("status"));
            assertTrue(e.containsKey("run_id") && e.containsKey("turn_id") && e.containsKey("dedupe_key"), e.toString());
            assertTrue(e.containsKey("scope") && e.containsKey("subject") && e.containsKey("at"), e.toString());
        }

        JsonObject decision = all("/v1/decisions?event_id=" + ids.get(2)).get(0);
        assertEquals("forward_event", decision.getString("type"));
        assertEquals(events.get(2).getString("run_id"), decision.getString("run_id"));
        String runId = events.get(3).getString("run_id");
        api.awaitRun(runId, 30);
        List<JsonObject> actions = all("/v1/actions?run_id=" + runId);
        assertEquals(List.of("accepted", "completed"), awaitActions(runId, 2));
        assertEquals(ids.get(3), actions.get(0).getString("event_id"));

        Api.Reply export = api.send(api.request("/v1/events?session_key=" + session)
                .header("Accept", "application/x-ndjson").GET());
        assertEquals(200, export.status(), export.body());
        List<String> lines = export.body().lines().toList();
        assertEquals(5, lines.size(), export.body());
        assertEquals(ids.get(0), Rpc.parse(lines.get(0)).getString("id"));

        assertEquals("invalid_cursor", api.get("/v1/events?cursor=bogus").errorCode());
        assertEquals("invalid_query", api.get("/v1/events?colour=red").errorCode());
        assertEquals("invalid_since", api.get("/v1/decisions?since=tomorrow").errorCode());
        assertEquals("invalid_limit", api.get("/v1/actions?limit=0").errorCode());
        assertEquals(0, all("/v1/events?session_key=" + session + "&since=2999-01-01T00:00:00Z").size());
    }

    private static List<String> awaitActions(String runId, int count) {
        long deadline = System.currentTimeMillis() + 15_000;
        List<String> statuses;
        do {
            statuses = all("/v1/actions?run_id=" + runId).stream().map(x -> x.getString("status")).toList();
            if (statuses.size() >= count) {
                return statuses;
            }
            Rpc.pause(100);
        } while (System.currentTimeMillis() < deadline);
        return statuses;
    }

    @Test
    @Order(4)
    void announcementsReachMainUnlessTheDecisionIsANoOp() throws Exception {
        String repo = lane();
        try (RpcSocket socket = subscribed(Rpc.obj())) {
            JsonObject quiet = accepted(event(repo, "ci.check", Json.createObjectBuilder()
                    .add("instruction", "Looked at it.\nDecision: no-op\nAction taken: none")));
            assertEquals("succeeded", api.awaitRun(quiet.getString("run_id"), 30).getString("status"));
            JsonObject loud = accepted(event(repo, "ci.check", Json.createObjectBuilder()
                    .add("instruction", "Reviewed.\nDecision: pr-review\nAction taken: posted review")));
            JsonObject announce = socket.notifications.await(n -> announces(n, loud.getString("event_id")),
                    java.time.Duration.ofSeconds(15)).getJsonObject("params").getJsonObject("content");
            assertEquals("pr-review", announce.getString("decision"));
            assertFalse(announce.containsKey("decision_raw"), announce.toString());
            assertEquals("posted_review", announce.getString("action"));
            assertEquals("event:" + repo, announce.getString("source_session_key"));
            assertEquals("ci.check", announce.getString("event_type"));
            // Same lane, so the no-op's end committed (and was sequenced) before the announced one.
            assertTrue(socket.notifications.matching(n -> announces(n, quiet.getString("event_id"))).isEmpty(),
                    "a no-op decision is not announced on main");
            assertEquals(List.of("accepted", "completed"), awaitActions(quiet.getString("run_id"), 2),
                    "the no-op event is still fully recorded");
            JsonObject odd = accepted(event(repo, "ci.check", Json.createObjectBuilder()
                    .add("instruction", "Shipped it.\nDecision: deploy")));
            JsonObject oddAnnounce = socket.notifications.await(n -> announces(n, odd.getString("event_id")),
                    java.time.Duration.ofSeconds(15)).getJsonObject("params").getJsonObject("content");
            assertEquals("unknown", oddAnnounce.getString("decision"), "outside the closed enum (H17)");
            assertEquals("deploy", oddAnnounce.getString("decision_raw"), "the reply's own word is kept");
        }
    }

    @Test
    @Order(4)
    void rpcTurnsAreJournalledLikeEventsAndAnnouncedOnMainFromOtherThreads() throws Exception {
        String thread = "rpc-" + UUID.randomUUID().toString().substring(0, 8);
        try (RpcSocket socket = subscribed(Rpc.obj())) {
            String onMain = rpc.startTurnId("main", "nothing to announce");
            socket.notifications.await(Rpc.endOf(onMain), java.time.Duration.ofSeconds(15));
            String turnId = rpc.startTurnId(thread, "Fixed it.\nDecision: pr-fix\nAction taken: updated branch");
            List<JsonObject> journalled = all("/v1/events?session_key=" + q(thread));
            assertEquals(1, journalled.size(), journalled.toString());
            JsonObject event = journalled.get(0);
            assertEquals("rpc", event.getString("source"));
            assertEquals("rpc.turn.input", event.getString("type"));
            assertEquals("accepted", event.getString("status"));
            assertEquals(turnId, event.getString("turn_id"));
            assertEquals(Json.createObjectBuilder().add("kind", "thread").add("id", thread).build(), event.getJsonObject("subject"));
            assertEquals(turnId, event.getJsonObject("payload").getString("turn_id"));
            assertEquals(thread, event.getJsonObject("payload").getString("session_key"));
            String eventId = event.getString("id");
            String runId = event.getString("run_id");
            assertEquals(List.of("forward_event"), all("/v1/decisions?event_id=" + q(eventId)).stream()
                    .map(d -> d.getString("type")).toList());
            assertEquals(List.of("accepted", "completed"), awaitActions(runId, 2), "the turn's end is recorded");

            JsonObject announce = socket.notifications.await(n -> announces(n, eventId), java.time.Duration.ofSeconds(15))
                    .getJsonObject("params").getJsonObject("content");
            assertEquals("rpc", announce.getString("source"));
            assertEquals("rpc.turn.input", announce.getString("event_type"));
            assertEquals(thread, announce.getString("source_session_key"));
            assertEquals("pr-fix", announce.getString("decision"));
            assertEquals("updated_branch", announce.getString("action"));

            JsonObject mainEvent = all("/v1/events?turn_id=" + q(onMain)).get(0);
            assertEquals("main", mainEvent.getString("session_key"), "a turn on main is journalled too");
            assertEquals(List.of("accepted", "completed"), awaitActions(mainEvent.getString("run_id"), 2));
            // The main turn ended before the other turn started, so an announce of it would have come first.
            assertTrue(socket.notifications.matching(n -> announces(n, mainEvent.getString("id"))).isEmpty(),
                    "a turn on main is not announced on main");
        }
    }

    @Test
    @Order(4)
    void interruptingTheRunningTurnSkipsTheLanesQueuedTurnsAndEvents() throws Exception {
        String repo = lane();
        String thread = "event:" + repo;
        try (RpcSocket socket = subscribed(Rpc.obj("threads", Rpc.arr(thread)))) {
            String running = rpc.startTurnId(thread, "sleep 60000; never");
            socket.notifications.await(Rpc.progressOf(running, "running"), java.time.Duration.ofSeconds(15));
            JsonObject queuedEvent = accepted(event(repo, "ci.check", Json.createObjectBuilder().add("instruction", "queued")));
            assertEquals(thread, queuedEvent.getString("session_key"));
            String queuedTurn = rpc.startTurnId(thread, "queued too");

            rpc.result("turn/interrupt", Rpc.obj("turn_id", running, "reason", "operator stop"));

            for (String turn : List.of(queuedEvent.getString("turn_id"), queuedTurn)) {
                JsonObject end = socket.notifications.await(Rpc.endOf(turn), java.time.Duration.ofSeconds(15));
                assertEquals("turn/interrupted", end.getString("method"), end.toString());
                assertEquals("turn interrupted by user request", end.getJsonObject("params").getString("message"));
            }
            JsonObject eventRun = api.get("/v1/runs/" + queuedEvent.getString("run_id")).json();
            assertEquals("failed", eventRun.getString("status"));
            assertEquals("superseded", eventRun.getJsonObject("error").getString("code"));
            assertEquals(List.of("accepted", "interrupted"), awaitActions(queuedEvent.getString("run_id"), 2),
                    "the skipped event's action records it");
            assertTrue(socket.notifications.matching(Rpc.itemOf(queuedEvent.getString("turn_id"), "assistant")).isEmpty(),
                    "the skipped event never ran");
        }
    }

    private static boolean announces(JsonObject n, String eventId) {
        return "item/created".equals(n.getString("method", ""))
                && "main".equals(n.getJsonObject("params").getString("thread_id", ""))
                && n.getJsonObject("params").containsKey("content")
                && eventId.equals(n.getJsonObject("params").getJsonObject("content").getString("event_id", ""));
    }

    @Test
    @Order(4)
    void aFailedEventCanBeRequeuedAndOnlyAFailedOne() {
        String repo = lane();
        JsonObject failing = accepted(event(repo, "ci.flaky", Json.createObjectBuilder().add("instruction", "fail boom")));
        JsonObject run = api.awaitRun(failing.getString("run_id"), 30);
        assertEquals("failed", run.getString("status"), run.toString());
        assertEquals(List.of("accepted", "failed"), awaitActions(failing.getString("run_id"), 2));

        Api.Reply requeued = post("/v1/events/" + failing.getString("event_id") + "/requeue", "");
        assertEquals(202, requeued.status(), requeued.body());
        String second = requeued.json().getString("run_id");
        assertNotEquals(failing.getString("run_id"), second);
        assertEquals("failed", api.awaitRun(second, 30).getString("status"));
        List<String> decisions = all("/v1/decisions?event_id=" + failing.getString("event_id")).stream()
                .map(d -> d.getString("type")).toList();
        assertEquals(List.of("forward_event", "requeue_event"), decisions);
        assertEquals(List.of("accepted", "failed"), awaitActions(second, 2));

        JsonObject fine = accepted(event(repo, "ci.fine", null));
        api.awaitRun(fine.getString("run_id"), 30);
        Api.Reply refused = post("/v1/events/" + fine.getString("event_id") + "/requeue", "");
        assertEquals(409, refused.status(), refused.body());
        assertEquals("event_not_requeueable", refused.errorCode());
        assertEquals(404, post("/v1/events/evt_nope/requeue", "").status());
    }

    @Test
    @Order(5)
    void pauseHoldsEveryEventAndResumeRunsThemInArrivalOrder() {
        String repo = lane();
        String session = "event:" + repo;
        long processedBefore = rpc.result("server/status", null).getJsonNumber("events_processed").longValue();
        rpc.result("server/pause", null);
        List<String> held = new ArrayList<>();
        try {
            for (int i = 0; i < 10; i++) {
                JsonObject e = Json.createObjectBuilder(event(repo, "ci.step", null))
                        .add("dedupe_key", session + ":" + i).build();
                JsonObject answer = accepted(e);
                assertEquals("deferred", answer.getString("status"), answer.toString());
                assertFalse(answer.containsKey("run_id"));
                held.add(answer.getString("event_id"));
            }
            JsonObject repeat = Json.createObjectBuilder(event(repo, "ci.step", null)).add("dedupe_key", session + ":3")
                    .build();
            assertEquals("duplicate", accepted(repeat).getString("status"), "a held key is already taken");
            Rpc.pause(500);
            assertEquals(0, count("SELECT count(*) FROM runs WHERE thread_key = ?", session), "nothing runs while paused");
        } finally {
            rpc.result("server/resume", null);
        }
        long deadline = System.currentTimeMillis() + 30_000;
        List<JsonObject> runs;
        do {
            runs = api.threadRuns(session);
            Rpc.pause(100);
        } while ((runs.size() < 10 || runs.stream().anyMatch(r -> "running".equals(r.getString("status"))))
                && System.currentTimeMillis() < deadline);
        assertEquals(10, runs.size(), runs.toString());
        List<JsonObject> events = all("/v1/events?session_key=" + q(session));
        Map<String, String> eventOfRun = new TreeMap<>();
        for (JsonObject e : events) {
            if (e.getString("status").equals("accepted")) {
                eventOfRun.put(e.getString("run_id"), e.getString("id"));
            }
        }
        List<String> ranInOrder = runs.stream().map(r -> eventOfRun.get(r.getString("run_id"))).toList();
        assertEquals(held, ranInOrder, "held events run once each, in arrival order");
        for (JsonObject r : runs) {
            assertEquals("succeeded", r.getString("status"));
        }
        List<String> firstDecisions = all("/v1/decisions?event_id=" + held.get(0)).stream()
                .map(d -> d.getString("type")).toList();
        assertEquals(List.of("defer_event", "forward_event"), firstDecisions);
        long processedAfter = rpc.result("server/status", null).getJsonNumber("events_processed").longValue();
        assertTrue(processedAfter >= processedBefore + 10, processedBefore + " -> " + processedAfter);
    }
}
