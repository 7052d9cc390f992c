package dev.switchboard.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import jakarta.json.JsonObject;
import java.net.http.HttpRequest;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** API tokens map callers to users; users never see each other's threads or runs. */
class AuthIT {

    private static final int PORT = 9184;
    private static final String ALICE = "alice-token-0123456789";
    private static final String BOB = "bob-token-0123456789abc";
    private static Instance instance;
    private static Api api;

    @BeforeAll
    static void start() {
        String db = TestDatabase.recreate("switchboard_it_auth");
        Map<String, String> env = Instance.defaults(db, PORT, "it-auth");
        env.put("SWITCHBOARD_AUTH_TOKENS", ALICE + "=alice," + BOB + "=bob");
        instance = Instance.start("it-auth", PORT, env);
        api = instance.api;
    }

    @AfterAll
    static void stop() {
        if (instance != null) {
            instance.stop();
        }
    }

    private static Api.Reply post(String token, String body) {
        HttpRequest.Builder b = api.request("/v1/messages").header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        return api.send(b);
    }

    private static Api.Reply get(String token, String path) {
        return api.send(api.request(path).header("Authorization", "Bearer " + token).GET());
    }

    @Test
    void callersNeedAKnownToken() {
        Api.Reply none = post(null, "{\"text\":\"hi\"}");
        assertEquals(401, none.status());
        assertEquals("unauthorized", none.errorCode());
        assertEquals(401, post("wrong-token-0123456789", "{\"text\":\"hi\"}").status());
        assertEquals(200, api.get("/healthz").status(), "the probe stays public");
    }

    @Test
    void usersAreIsolated() {
        JsonObject alices = post(ALICE, "{\"text\":\"alice's\",\"thread_key\":\"shared-name\"}").json();
        JsonObject bobs = post(BOB, "{\"text\":\"bob's\",\"thread_key\":\"shared-name\"}").json();
        assertEquals(1, alices.getInt("thread_seq"));
        assertEquals(1, bobs.getInt("thread_seq"), "same key, different users: different threads");

        String runId = alices.getString("run_id");
        assertEquals(200, get(ALICE, "/v1/runs/" + runId).status());
        assertEquals(404, get(BOB, "/v1/runs/" + runId).status());
        assertEquals(1, get(BOB, "/v1/threads/shared-name/runs").json().getJsonArray("runs").size());

        String key = "{\"text\":\"k\",\"idempotency_key\":\"same-key\"}";
        assertNotEquals(post(ALICE, key).json().getString("run_id"), post(BOB, key).json().getString("run_id"),
                "idempotency keys are scoped per user");
    }
}
