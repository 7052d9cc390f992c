package dev.switchboard.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.switchboard.testkit.Await;
import jakarta.json.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A freshly started instance, Liberty's pools at their defaults, gets a burst of requests that
 * wait for their runs — non-streamed {@code POST /v1/responses} and {@code /v1/runs/{id}/wait} —
 * the moment it is ready. Each is answered when its 4 s run ends; while they wait, no request
 * thread is parked in the resource that took them (a thread dump shows it), and readiness, probed
 * every 100 ms, answers every probe within 3 s and 95 % of them within 1 s.
 * Before the waits were asynchronous, the few threads of a cold instance's pool sat in
 * {@code ResponsesResource.awaitEnd} waiting for wake-ups queued behind them on that same pool.
 */
class ColdBurstIT {

    private static final int PORT = 9223;
    private static final String NAME = "it-cold-burst";
    private static final long ENGINE_MS = 4_000;
    private static final int RESPONSES = 24;
    private static final int WAITS = 8;
    private static Instance instance;

    @BeforeAll
    static void start() {
        String db = TestDatabase.recreate("switchboard_it_cold_burst");
        Map<String, String> env = Instance.defaults(db, PORT, NAME);
        env.put("SWITCHBOARD_ENGINE", "echo");
        env.put("SWITCHBOARD_ENGINE_ECHO_DELAY_MS", Long.toString(ENGINE_MS));
        instance = Instance.start(NAME, PORT, env);
    }

    @AfterAll
    static void stop() {
        if (instance != null) {
            instance.stopNow();
        }
    }

    @Test
    void aColdInstanceAnswersABurstOfWaitingRequestsWithoutParkingAThreadOnThem() throws Exception {
        Api api = instance.api;
        ExecutorService clients = Executors.newFixedThreadPool(RESPONSES + WAITS + 1);
        AtomicBoolean bursting = new AtomicBoolean(true);
        List<Long> healthMs = new ArrayList<>();
        try {
            Future<?> probes = clients.submit(() -> {
                while (bursting.get()) {
                    long t0 = System.nanoTime();
                    int status = api.get("/health/ready").status();
                    synchronized (healthMs) {
                        healthMs.add(status == 200 ? TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0) : Long.MAX_VALUE);
                    }
                    Thread.sleep(100); // one probe every 100 ms, as a load balancer's
                }
                return null;
            });
            long sent = System.nanoTime();
            List<Future<Api.Reply>> answers = new ArrayList<>();
            for (int i = 0; i < RESPONSES; i++) {
                String body = Json.createObjectBuilder().add("model", "echo").add("input", "burst " + i).build().toString();
                answers.add(clients.submit(() -> api.postJson("/v1/responses", body)));
            }
            for (int i = 0; i < WAITS; i++) {
                String runId = api.message("cold-burst-" + i, "wait " + i).getString("run_id");
                answers.add(clients.submit(() -> api.get("/v1/runs/" + runId + "/wait?timeout=30")));
            }

            // Every request is in, none can have ended (the engine takes 4 s): they are all waiting now.
            Await.until(Duration.ofSeconds(3), () -> executing(api) >= RESPONSES + WAITS, "every run executing");
            List<String> parked = requestThreadsIn(threadDump(), "ResponsesResource", "RunsResource");
            assertEquals(List.of(), parked, "request threads held by waiting requests");

            for (Future<Api.Reply> answer : answers) {
                Api.Reply reply = answer.get(ENGINE_MS + 20_000, TimeUnit.MILLISECONDS);
                assertEquals(200, reply.status(), reply.body());
                String status = reply.json().getString("status"); // a response's "completed", a run's "succeeded"
                assertTrue(status.equals("completed") || status.equals("succeeded"), reply.body());
            }
            long allDoneMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - sent);
            assertTrue(allDoneMs < ENGINE_MS + 6_000, "the burst took " + allDoneMs + " ms for runs of " + ENGINE_MS + " ms");
            bursting.set(false);
            probes.get(10, TimeUnit.SECONDS);
        } finally {
            bursting.set(false);
            clients.shutdownNow();
        }
        synchronized (healthMs) {
            assertTrue(healthMs.size() >= 5, "health probed during the burst: " + healthMs);
            assertTrue(healthMs.stream().allMatch(ms -> ms < 3_000), "every readiness probe answered 200 within 3 s: " + healthMs);
            long withinASecond = healthMs.stream().filter(ms -> ms < 1_000).count();
            assertTrue(withinASecond >= 0.95 * healthMs.size(), "95 % of the probes within 1 s: " + healthMs);
        }
    }

    private static int executing(Api api) {
        String metrics = api.get("/metrics").body();
        Matcher m = Pattern.compile("(?m)^switchboard_runs_executing\\S* (\\d+)").matcher(metrics);
        return m.find() ? (int) Double.parseDouble(m.group(1)) : 0;
    }

    private static String threadDump() throws IOException, InterruptedException {
        String pid = Files.readString(Instance.outputDir(NAME).resolve(".pid/switchboard.pid")).strip();
        Process jcmd = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(), pid,
                "Thread.print").redirectErrorStream(true).start();
        String dump = new String(jcmd.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(jcmd.waitFor(30, TimeUnit.SECONDS) && jcmd.exitValue() == 0, "jcmd failed: " + dump);
        return dump;
    }

    /** The names of the server's request threads whose stack is inside one of {@code classes}. */
    private static List<String> requestThreadsIn(String dump, String... classes) {
        List<String> found = new ArrayList<>();
        for (String thread : dump.split("\n\n")) {
            if (!thread.startsWith("\"Default Executor")) {
                continue;
            }
            for (String c : classes) {
                if (thread.contains("dev.switchboard.rest.") && thread.contains("." + c + ".")) {
                    found.add(thread.lines().findFirst().orElse("") + " in " + c);
                }
            }
        }
        return found;
    }
}
