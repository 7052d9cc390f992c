package dev.switchboard.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.switchboard.core.ingress.WebhookSignature;
import jakarta.json.JsonObject;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.ResourceAccessMode;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * GitHub webhook ingress on an instance with a webhook secret (the shared one): signatures, dedupe
 * by delivery, routing to the repository's lane, execution as a run, {@code event/received} on the
 * stream, and bodies refused without a trace. Each test has repositories of its own.
 */
@ResourceLock(value = SharedInstance.LOCK, mode = ResourceAccessMode.READ)
class GithubWebhookIT {

    private static final String SECRET = SharedInstance.WEBHOOK_SECRET;
    private static Api api;
    private static String db;

    @BeforeAll
    static void start() {
        api = SharedInstance.api();
        db = SharedInstance.database();
    }

    private static Api.Reply deliver(String body, String event, String delivery, String signature) {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        HttpRequest.Builder b = api.request("/ingress/github/webhook").header("Content-Type", "application/json")
                .header("X-GitHub-Event", event).header("X-GitHub-Delivery", delivery)
                .POST(HttpRequest.BodyPublishers.ofByteArray(bytes));
        if (signature != null) {
            b.header("X-Hub-Signature-256", signature);
        }
        return api.send(b);
    }

    private static Api.Reply deliverSigned(String body, String event, String delivery) {
        return deliver(body, event, delivery, WebhookSignature.sign(SECRET, body.getBytes(StandardCharsets.UTF_8)));
    }

    private static String issueComment(String repo, int issue, long commentId) {
        return "{\"action\":\"created\",\"issue\":{\"number\":" + issue + "},\"comment\":{\"id\":" + commentId
                + ",\"body\":\"please fix\"},\"repository\":{\"full_name\":\"" + repo + "\"}}";
    }

    private static long count(String sql, String value) {
        return TestDatabase.count(db, sql, value);
    }

    @Test
    void unsignedOrForgedDeliveriesAre401AndLeaveNoRecord() {
        String repo = "acme/forged-" + UUID.randomUUID().toString().substring(0, 8);
        String body = issueComment(repo, 1, 1);
        Api.Reply missing = deliver(body, "issue_comment", "d-" + UUID.randomUUID(), null);
        assertEquals(401, missing.status(), missing.body());
        assertEquals("invalid_signature", missing.errorCode());
        Api.Reply forged = deliver(body, "issue_comment", "d-" + UUID.randomUUID(),
                WebhookSignature.sign("not-the-secret", body.getBytes(StandardCharsets.UTF_8)));
        assertEquals(401, forged.status());
        assertEquals(0, count("SELECT count(*) FROM ingress_events WHERE repo = ?", repo));
    }

    @Test
    void theClientsSignedTestDeliveryIsAcceptedAndAWrongSecretIsRefused() {
        String repo = "acme/cli-" + UUID.randomUUID().toString().substring(0, 8);
        Cli.Result signed = Cli.run(api.base, Map.of("SWITCHBOARD_INGRESS_GITHUB_SECRET", SECRET),
                "ingress", "send", "--repo", repo, "--number", "41", "--text", "please fix");
        assertEquals(0, signed.exit(), signed.toString());
        String[] answer = signed.out().strip().split(" ");
        assertEquals("accepted", answer[0], signed.toString());
        assertEquals("event:" + repo, answer[2]);
        assertEquals("succeeded", api.awaitRun(answer[3], 30).getString("status"));

        Cli.Result forged = Cli.run(api.base, "ingress", "send", "--repo", repo, "--secret", "not-the-secret");
        assertEquals(1, forged.exit(), forged.toString());
        String serverSays = deliver(issueComment(repo, 1, 2), "issue_comment", "d-" + UUID.randomUUID(), "sha256=00")
                .json().getJsonObject("error").getString("message");
        assertEquals(serverSays + "\n", forged.err());
        assertEquals(1, count("SELECT count(*) FROM ingress_events WHERE repo = ?", repo), "only the signed delivery is recorded");
    }

    @Test
    void aSignedDeliveryRunsOnceInItsRepositorysLaneAndAResendIsADuplicate() throws Exception {
        String repo = "acme/widgets-" + UUID.randomUUID().toString().substring(0, 8);
        String delivery = "d-" + UUID.randomUUID();
        String body = issueComment(repo, 527, 9001);
        try (RpcSocket socket = RpcSocket.subscribed(URI.create(api.base).getPort(), Rpc.obj())) {
            Api.Reply first = deliverSigned(body, "issue_comment", delivery);
            assertEquals(202, first.status(), first.body());
            JsonObject accepted = first.json();
            assertEquals("accepted", accepted.getString("status"));
            assertEquals("event:" + repo, accepted.getString("session_key"));
            String runId = accepted.getString("run_id");

            JsonObject run = api.awaitRun(runId, 30);
            assertEquals("succeeded", run.getString("status"), run.toString());
            assertEquals("event:" + repo, run.getString("thread_key"));
            assertEquals("ingress:github", run.getString("source"));

            JsonObject received = socket.notifications.await(n -> "event/received".equals(n.getString("method", ""))
                    && accepted.getString("event_id").equals(n.getJsonObject("params").getString("event_id")),
                    Duration.ofSeconds(10));
            assertEquals("github.issue.comment.created", received.getJsonObject("params").getString("event_type"));
            assertEquals(repo, received.getJsonObject("params").getString("repo"));
            socket.notifications.await(Rpc.endOf(accepted.getString("turn_id")), Duration.ofSeconds(10));
            JsonObject announce = socket.notifications.await(n -> "item/created".equals(n.getString("method", ""))
                    && "main".equals(n.getJsonObject("params").getString("thread_id", ""))
                    && accepted.getString("event_id").equals(n.getJsonObject("params").getJsonObject("content")
                            .getString("event_id", "")), Duration.ofSeconds(10)).getJsonObject("params");
            JsonObject content = announce.getJsonObject("content");
            assertEquals("system_announce", content.getString("type"));
            assertEquals("event:" + repo, content.getString("source_session_key"));
            assertEquals("github.issue.comment.created", content.getString("event_type"));
            assertEquals("unknown", content.getString("decision"), "the echo reply names no decision");
            assertEquals("completed", announce.getString("status"));

            Api.Reply again = deliverSigned(body, "issue_comment", delivery);
            assertEquals(202, again.status());
            assertEquals("duplicate", again.json().getString("status"));
            assertEquals(runId, again.json().getString("run_id"), "a duplicate names the run of the first delivery");
        }
        assertEquals(1, count("SELECT count(*) FROM runs WHERE thread_key = ?", "event:" + repo));
        assertEquals(2, count("SELECT count(*) FROM ingress_events WHERE repo = ?", repo), "both deliveries journalled");
        assertEquals(1, count("SELECT count(*) FROM ingress_decisions d JOIN ingress_events e ON e.event_id = d.event_id "
                + "WHERE d.skipped AND d.reason = 'duplicate dedupe_key' AND e.repo = ?", repo));
        assertEquals(1, count("SELECT count(*) FROM ingress_actions a JOIN ingress_events e ON e.event_id = a.event_id "
                + "WHERE a.status = 'accepted' AND e.repo = ?", repo), "no action for a duplicate");
        assertEquals(1, count("SELECT count(*) FROM ingress_actions a JOIN ingress_events e ON e.event_id = a.event_id "
                + "WHERE a.status = 'completed' AND a.ended_at IS NOT NULL AND e.repo = ?", repo),
                "the final outcome is a second action (H9)");
    }

    @Test
    void concurrentResendsOfOneDeliveryCreateOneRun() throws Exception {
        String repo = "acme/race-" + UUID.randomUUID().toString().substring(0, 8);
        String delivery = "d-" + UUID.randomUUID();
        String body = issueComment(repo, 3, 77);
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(8);
        try {
            java.util.List<java.util.concurrent.Future<Api.Reply>> replies = new java.util.ArrayList<>();
            for (int i = 0; i < 16; i++) {
                replies.add(pool.submit(() -> deliverSigned(body, "issue_comment", delivery)));
            }
            java.util.Set<String> runIds = new java.util.HashSet<>();
            for (java.util.concurrent.Future<Api.Reply> reply : replies) {
                Api.Reply r = reply.get();
                assertEquals(202, r.status(), r.body());
                runIds.add(r.json().getString("run_id"));
            }
            assertEquals(1, runIds.size(), "every resend names the one run: " + runIds);
        } finally {
            pool.shutdownNow();
        }
        assertEquals(1, count("SELECT count(*) FROM runs WHERE thread_key = ?", "event:" + repo));
        assertEquals(16, count("SELECT count(*) FROM ingress_events WHERE repo = ?", repo));
    }

    @Test
    void unsupportedEventsAreAcceptedButNotRecorded() {
        String body = "{\"ref\":\"refs/heads/main\",\"repository\":{\"full_name\":\"acme/push-only\"}}";
        Api.Reply reply = deliverSigned(body, "push", "d-" + UUID.randomUUID());
        assertEquals(202, reply.status());
        assertEquals("ignored", reply.json().getString("status"));
        assertEquals(0, count("SELECT count(*) FROM ingress_events WHERE repo = ?", "acme/push-only"));
    }

    @Test
    void malformedBodiesAre400WithAJsonErrorAndNoRecord() {
        Api.Reply notJson = deliverSigned("{not json", "issue_comment", "d-" + UUID.randomUUID());
        assertEquals(400, notJson.status());
        assertEquals("invalid_json", notJson.errorCode());
        Api.Reply array = deliverSigned("[1,2]", "issue_comment", "d-" + UUID.randomUUID());
        assertEquals(400, array.status());
        Api.Reply empty = deliverSigned("", "issue_comment", "d-" + UUID.randomUUID());
        assertEquals(400, empty.status());
        assertEquals("empty_body", empty.errorCode());
        String huge = issueComment("acme/huge", 1, 1).replace("please fix", "x".repeat(70_000));
        Api.Reply tooBig = deliverSigned(huge, "issue_comment", "d-" + UUID.randomUUID());
        assertEquals(413, tooBig.status());
        assertEquals("payload_too_large", tooBig.errorCode());
        assertEquals(0, count("SELECT count(*) FROM ingress_events WHERE repo = ?", "acme/huge"));
    }
}
