package dev.switchboard.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.switchboard.testkit.Await;
import dev.switchboard.testkit.EngineTrace;
import dev.switchboard.testkit.ThrowawayPostgres;
import jakarta.json.JsonObject;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The database goes away while a run executes: requests get a clear 503 instead of a 500 or a
 * hang, and once the database is back the acknowledged run still completes.
 */
class DatabaseOutageIT {

    private static final int PORT = 9187;
    private static ThrowawayPostgres postgres;
    private static Instance instance;

    @BeforeAll
    static void start() throws Exception {
        postgres = new ThrowawayPostgres(5499);
        postgres.createDatabase("switchboard");
        Map<String, String> env = Instance.defaults("switchboard", PORT, "it-outage");
        env.put("DB_URL", postgres.jdbcUrl("switchboard"));
        instance = Instance.start("it-outage", PORT, env);
    }

    @AfterAll
    static void stop() throws Exception {
        if (instance != null) {
            instance.stop();
        }
        if (postgres != null) {
            postgres.close();
        }
    }

    @Test
    void anAcknowledgedRunSurvivesADatabaseOutageAndRequestsMeanwhileGet503() throws Exception {
        Api api = instance.api;
        String runId = api.message("outage", "sleep 3000; survived the outage").getString("run_id");
        postgres.stop();

        Api.Reply during = api.postJson("/v1/messages", "{\"text\":\"during\"}");
        assertEquals(503, during.status(), during.body());
        assertEquals("database_unavailable", during.errorCode());
        Api.Reply read = api.get("/v1/runs/" + runId);
        assertEquals(503, read.status(), read.body());
        // Readiness says so within a few seconds (its probe runs every second), and never waits for the database.
        Await.until(Duration.ofSeconds(10), () -> {
            long t0 = System.nanoTime();
            int status = api.get("/health/ready").status();
            assertTrue(System.nanoTime() - t0 < TimeUnit.SECONDS.toNanos(1), "readiness answers within a second");
            return status == 503;
        }, "readiness DOWN while the database is away");

        // The engine's call ends while the database is away: its result can only be recorded once it is back.
        Await.until(Duration.ofSeconds(30), () -> EngineTrace.readDir(Instance.journalDir()).callsOf(runId).stream()
                .anyMatch(c -> c.outcome() != null), "the run's engine call ended during the outage");
        postgres.start();
        JsonObject done = api.awaitRun(runId, 60);
        Await.until(Duration.ofSeconds(10), () -> api.get("/health/ready").status() == 200, "ready again");
        assertEquals("succeeded", done.getString("status"), done.toString());
        assertEquals("survived the outage", done.getJsonObject("output").getString("text"));
    }
}
