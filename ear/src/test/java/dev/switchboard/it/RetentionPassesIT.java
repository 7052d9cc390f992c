package dev.switchboard.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.switchboard.testkit.Await;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.ResourceAccessMode;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * Retention on a running server (the shared instance passes every 500 ms, with the default ages:
 * runs 30 days, history kept): runs made 31 days old in the database disappear from the API on
 * their own, with their idempotency keys, while the thread's history and a young run stay, and the
 * deletions are counted in {@code /metrics}.
 */
@ResourceLock(value = SharedInstance.LOCK, mode = ResourceAccessMode.READ)
class RetentionPassesIT {

    private static final Duration DEADLINE = Duration.ofSeconds(30);
    private static Api api;
    private static String db;

    @BeforeAll
    static void start() {
        api = SharedInstance.api();
        db = SharedInstance.database();
    }

    @Test
    void agedRunsLeaveTheApiOnTheirOwnAndTheHistoryStays() throws Exception {
        String old = "retention-old-" + UUID.randomUUID();
        String young = "retention-young-" + UUID.randomUUID();
        String key = "key-" + UUID.randomUUID();
        String aged = finished(old, "one", key);
        String kept = finished(young, "two", null);
        long items = TestDatabase.count(db, "SELECT count(*) FROM thread_items i JOIN threads t ON t.id = i.thread_id"
                + " WHERE t.thread_key = ?", old);
        assertTrue(items > 0, "the run left its history");

        assertEquals(1, age(old, Duration.ofDays(31)));
        Await.until(DEADLINE, () -> api.get("/v1/runs/" + aged).status() == 404, "the aged run is deleted");

        assertEquals(200, api.get("/v1/runs/" + kept).status(), "a young run stays");
        assertEquals(items, TestDatabase.count(db, "SELECT count(*) FROM thread_items i JOIN threads t"
                + " ON t.id = i.thread_id WHERE t.thread_key = ?", old), "the history is kept by default");
        assertEquals(0, TestDatabase.count(db, "SELECT count(*) FROM turns WHERE thread_key = ?", old), "its turn went");
        Api.Reply again = api.postJson("/v1/messages", "{\"thread_key\":\"" + old + "\",\"text\":\"one\"}",
                "Idempotency-Key", key);
        assertEquals(202, again.status(), again.body());
        assertNotEquals(aged, again.json().getString("run_id"), "its idempotency key went with it");
        String metrics = api.get("/metrics").body();
        assertTrue(metrics.lines().anyMatch(l -> l.startsWith("switchboard_retention_deleted_total{")
                && l.contains("kind=\"message-runs\"")), "the deletion is counted");
    }

    private static String finished(String thread, String text, String key) {
        String runId;
        if (key == null) {
            runId = api.message(thread, text).getString("run_id");
        } else {
            Api.Reply reply = api.postJson("/v1/messages", "{\"thread_key\":\"" + thread + "\",\"text\":\"" + text
                    + "\"}", "Idempotency-Key", key);
            assertEquals(202, reply.status(), reply.body());
            runId = reply.json().getString("run_id");
        }
        assertEquals("succeeded", api.awaitRun(runId, 30).getString("state"));
        return runId;
    }

    private static int age(String thread, Duration by) throws SQLException {
        try (Connection c = TestDatabase.connect(db); PreparedStatement s = c.prepareStatement(
                "UPDATE runs SET created_at = created_at - ?, finished_at = finished_at - ? WHERE thread_key = ?")) {
            s.setLong(1, by.toMillis());
            s.setLong(2, by.toMillis());
            s.setString(3, thread);
            return s.executeUpdate();
        }
    }
}
