package dev.switchboard.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.switchboard.testkit.Await;
import dev.switchboard.testkit.EngineTrace;
import jakarta.json.Json;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * The moment a freshly started instance is ready (Liberty's pools at their defaults), it gets 200
 * concurrent requests of every kind that waits or streams — non-streamed and streamed
 * {@code POST /v1/responses}, {@code /v1/runs/{id}/wait}, chat server-sent events — and of the
 * plain kinds — {@code POST /v1/messages}, JSON-RPC {@code turn/start} — each kind's runs a third
 * each with engine delays of 0, 50 and 4,000 ms (the scripted engine's {@code sleep} directive), so
 * that requests that hold a wait or a stream for seconds and requests answered at once meet on the
 * cold instance's few threads in one burst. (This took three cold starts, one per delay, before.)
 * Every request is answered within its own deadline plus 2 s, or refused at once
 * (429/503 with {@code Retry-After}); {@code /health/ready}, probed every 100 ms, answers every
 * probe within 3 s (and 95 % of them within 1 s over the long burst); and a thread dump taken mid-burst shows no request
 * thread parked on a future, a semaphore or a latch in Switchboard's code. Before waits and
 * streams were asynchronous, a cold instance's few request threads sat in the requests that waited
 * (for wake-ups queued behind them on that same pool, or for their stream's next event).
 */
@Isolated // a burst measured with the machine to itself: no other class's instances share its two cores
@Order(0) // alone (@Isolated): JUnit runs it once the classes that run in parallel have ended
class ColdBurstIT {

    private static final int PORT = 9223;
    /** The health endpoints' own port (SWITCHBOARD_HEALTH_PORT), which a load balancer probes. */
    private static final int HEALTH_PORT = 9224;
    private static final String NAME = "it-cold-burst";
    /** Non-streamed and streamed responses, waits, chat streams, messages, JSON-RPC: 200 in all. */
    private static final int RESPONSES = 40;
    private static final int STREAMED = 40;
    private static final int WAITS = 30;
    private static final int CHATS = 30;
    private static final int MESSAGES = 30;
    private static final int RPCS = 30;
    /**
     * A request that only stores: its own deadline. Sized for a machine up to about three times
     * slower than the one of docs/reliability.md (where the burst's slowest such answer took 2.4 s;
     * on a slower machine of the same kind, 6.1 s): what this test catches — a starved instance —
     * leaves requests unanswered for minutes, not seconds.
     */
    private static final long STORE_DEADLINE_MS = 10_000;
    /** A readiness probe on the API's port waits its turn behind the burst; as long as the burst, and answered. */
    private static final long API_PORT_PROBE_MS = 15_000;
    /** A request that waits for its run: the client's timeout (and /wait's), longer than the queue of runs takes. */
    private static final long RUN_DEADLINE_MS = 30_000;
    private static final long GRACE_MS = 2_000;
    /**
     * A client waiting for its run is answered this soon after the run's end is recorded, or no later
     * than the burst kept its slowest plain message in the server's queue if that was longer (the
     * goal is ~100 ms; on a quiet 2-core machine the slowest is about 200 ms). The queue scales with
     * the machine's speed as a wake-up does: when answers waited for the container's pool, they came
     * as the queue drained (1.4–2.9 s on a quiet machine, more on a slow one); a wake-up lost for good
     * would wait for the client's own time-out, far beyond either. Twice the slowest wake-up seen on a
     * slow, busy host (1.13 s, 2026-11-28), so that the verdict is the server's, not the host's.
     */
    private static final long WAKE_FLOOR_MS = 2_500;
    /** A refusal is "at once". */
    private static final long REFUSAL_MS = 1_000;

    /**
     * What one request got: its kind, status (or -1: no answer), when, and the deadline it had;
     * for a client that waited for its run, the run's id and when the answer arrived (epoch ms).
     */
    private record Outcome(String kind, int status, long ms, long deadlineMs, String retryAfter, String detail,
            String runId, long askedAtMs, long answeredAtMs) {

        Outcome(String kind, int status, long ms, long deadlineMs, String retryAfter, String detail) {
            this(kind, status, ms, deadlineMs, retryAfter, detail, null, 0, System.currentTimeMillis());
        }

        /** The client asked at {@code asked} (epoch ms) for the end of {@code run}. */
        Outcome waitedFor(String run, long asked) {
            return new Outcome(kind, status, ms, deadlineMs, retryAfter, detail, run, asked, answeredAtMs);
        }

        boolean refused() {
            return status == 429 || status == 503;
        }
    }

    /** The engine delays of the burst's runs: request {@code i} of a kind has {@code DELAYS[i % 3]}. */
    private static final long[] DELAYS = {0, 50, 4_000};
    /** A delay from which every client waiting for its run is in the server before the run ends. */
    private static final long LONG_MS = 1_000;

    @Test
    void aColdInstanceAnswersAMixedBurstOrRefusesAtOnceAndHealthAnswersThroughout() throws Exception {
        String db = TestDatabase.recreate("switchboard_it_cold_burst");
        Map<String, String> env = Instance.defaults(db, PORT, NAME); // the scripted engine: a delay per run
        env.put("SWITCHBOARD_HEALTH_PORT", Integer.toString(HEALTH_PORT));
        env.remove("DB_POOL_MAX"); // the default pools, the database's too: it runs alone
        Instance instance = Instance.start(NAME, PORT, env);
        try {
            burst(instance.api, db);
        } finally {
            instance.stopNow();
        }
    }

    /** A kind's label with its delay ({@code wait/4000}), which the checks and the summary read. */
    private static String kind(String kind, int i) {
        return kind + "/" + DELAYS[i % DELAYS.length];
    }

    /** The run's text, with the directive that makes it take its delay. */
    private static String text(String text, int i) {
        long delay = DELAYS[i % DELAYS.length];
        return delay == 0 ? text : "sleep " + delay + "; " + text;
    }

    private static long delayOf(Outcome o) {
        return Long.parseLong(o.kind().substring(o.kind().indexOf('/') + 1));
    }

    private static boolean is(Outcome o, String kind) {
        return o.kind().startsWith(kind + "/");
    }

    private static void burst(Api api, String db) throws Exception {
        ExecutorService clients = Executors.newFixedThreadPool(RESPONSES + STREAMED + WAITS + CHATS + MESSAGES + RPCS);
        ScheduledExecutorService prober = Executors.newSingleThreadScheduledExecutor();
        ExecutorService probeClients = Executors.newCachedThreadPool();
        List<Long> healthMs = new ArrayList<>();
        List<Long> apiPortHealthMs = new ArrayList<>();
        List<Outcome> outcomes = new ArrayList<>();
        try {
            // A probe every 100 ms whether the last one answered or not, as a load balancer's: on the health
            // port (a thread of its own) and, for comparison, on the API's port (behind the burst in Liberty's queue).
            ScheduledFuture<?> probing = prober.scheduleAtFixedRate(() -> {
                probeClients.execute(() -> probe("http://127.0.0.1:" + HEALTH_PORT + "/health/ready", healthMs));
                probeClients.execute(() -> probe(api.base + "/health/ready", apiPortHealthMs));
            }, 0, 100, TimeUnit.MILLISECONDS);

            CountDownLatch go = new CountDownLatch(1);
            List<Callable<Outcome>> requests = new ArrayList<>();
            for (int i = 0; i < RESPONSES; i++) {
                String body = Json.createObjectBuilder().add("input", text("burst " + i, i)).build().toString();
                String kind = kind("response", i);
                requests.add(() -> response(api, kind, body));
            }
            for (int i = 0; i < STREAMED; i++) {
                String body = Json.createObjectBuilder().add("input", text("streamed " + i, i)).add("stream", true).build()
                        .toString();
                String kind = kind("streamed", i);
                requests.add(() -> streamedResponse(api, kind, body));
            }
            for (int i = 0; i < WAITS; i++) {
                String thread = "cold-wait-" + i;
                String kind = kind("wait", i);
                String text = text("wait for me", i);
                requests.add(() -> waitForRun(api, kind, thread, text));
            }
            for (int i = 0; i < CHATS; i++) {
                String thread = "cold-chat-" + i;
                String kind = kind("chat", i);
                String text = text("chat", i);
                requests.add(() -> chatStream(api, kind, thread, text));
            }
            for (int i = 0; i < MESSAGES; i++) {
                String body = Json.createObjectBuilder().add("thread_key", "cold-message-" + i).add("text", text("m " + i, i))
                        .build().toString();
                String kind = kind("message", i);
                requests.add(() -> plain(api, kind, "/v1/messages", body, 202));
            }
            for (int i = 0; i < RPCS; i++) {
                String body = Rpc.request(i + 1, "turn/start", Rpc.obj("thread_id", "cold-rpc-" + i, "input",
                        Rpc.input(text("r " + i, i))));
                String kind = kind("rpc", i);
                requests.add(() -> plain(api, kind, "/rpc", body, 200));
            }
            List<Future<Outcome>> answers = new ArrayList<>();
            for (Callable<Outcome> request : requests) {
                answers.add(clients.submit(() -> {
                    go.await();
                    return request.call();
                }));
            }
            long burstStartMicros = TimeUnit.MILLISECONDS.toMicros(System.currentTimeMillis());
            go.countDown();

            // Mid-burst: once the long runs fill the lanes, their waits and streams held open — seen in the
            // engine's journal, not through the API's port, whose answers wait behind the burst itself (a
            // slow host answered /metrics only after the 4 s runs had ended).
            Await.until(Duration.ofSeconds(10), () -> executingInTheEngine(burstStartMicros) >= 32, "runs executing");
            List<String> parked = requestThreadsParkedIn(threadDump());
            assertEquals(List.of(), parked, "request threads parked in Switchboard's code mid-burst");

            for (Future<Outcome> answer : answers) {
                synchronized (outcomes) {
                    outcomes.add(answer.get(RUN_DEADLINE_MS + GRACE_MS + 10_000, TimeUnit.MILLISECONDS));
                }
            }
            probing.cancel(false);
            probeClients.shutdown();
            assertTrue(probeClients.awaitTermination(10, TimeUnit.SECONDS), "the last readiness probes ended");
        } finally {
            prober.shutdownNow();
            probeClients.shutdownNow();
            clients.shutdownNow();
        }
        System.out.println("cold burst: " + summary(outcomes) + "; readiness probes "
                + percentiles(healthMs) + "; on the API's port " + percentiles(apiPortHealthMs));
        assertWokenSoonAfterTheirRunsEnded(db, outcomes);
        for (Outcome o : outcomes) {
            if (o.refused()) {
                assertTrue(o.ms() <= REFUSAL_MS, "a refusal comes at once: " + o);
                assertTrue(o.retryAfter() != null && o.retryAfter().matches("\\d+"), "a refusal says when to retry: " + o);
            } else {
                assertTrue(o.status() == 200 || o.status() == 202, "answered: " + o);
                assertTrue(o.ms() <= o.deadlineMs() + GRACE_MS, "answered within its deadline and 2 s: " + o);
            }
        }
        assertTrue(outcomes.stream().filter(o -> !o.refused()).count() >= outcomes.size() / 2,
                "most of the burst is served, not refused: " + summary(outcomes));
        synchronized (healthMs) {
            assertTrue(healthMs.size() >= 10, "health probed during the burst: " + healthMs);
            assertTrue(healthMs.stream().allMatch(ms -> ms < 3_000), "every readiness probe answered 200 within 3 s: " + healthMs);
            long withinASecond = healthMs.stream().filter(ms -> ms < 1_000).count();
            assertTrue(withinASecond >= 0.95 * healthMs.size(), "95 % of the probes within 1 s: " + healthMs);
        }
        synchronized (apiPortHealthMs) {
            // On the API's port a probe waits its turn behind the burst (docs/reliability.md), but is answered.
            assertTrue(apiPortHealthMs.stream().allMatch(ms -> ms < API_PORT_PROBE_MS),
                    "every readiness probe on the API's port answered 200 within " + API_PORT_PROBE_MS + " ms: "
                            + apiPortHealthMs);
        }
    }

    /**
     * Each client that waited for its run got its answer soon after the run ended: every non-streamed
     * response (its request made the run, so it was in the server before the run could end), and the
     * {@code /wait}s whose runs take long enough that they are all waiting before their runs end
     * (with a short one a {@code /wait} may still sit in the server's queue of the burst's requests
     * when its run ends, and its answer measures that queue, not a wake-up).
     */
    private static void assertWokenSoonAfterTheirRunsEnded(String db, List<Outcome> outcomes)
            throws Exception {
        Map<String, Long> ends = new java.util.HashMap<>();
        try (java.sql.Connection c = TestDatabase.connect(db);
                java.sql.PreparedStatement s = c.prepareStatement("SELECT finished_at FROM runs WHERE run_id = ?")) {
            for (Outcome o : outcomes) {
                if (o.runId() != null && o.status() == 200) {
                    s.setString(1, o.runId());
                    try (java.sql.ResultSet rs = s.executeQuery()) {
                        assertTrue(rs.next(), "run " + o.runId() + " is stored");
                        ends.put(o.runId(), rs.getLong(1));
                    }
                }
            }
        }
        List<Long> queued = outcomes.stream().filter(o -> is(o, "message") && o.status() == 200)
                .map(Outcome::ms).sorted().toList();
        long bound = Math.max(WAKE_FLOOR_MS, queued.isEmpty() ? 0 : queued.get(queued.size() - 1));
        List<Long> wakes = new ArrayList<>();
        List<String> late = new ArrayList<>();
        for (Outcome o : outcomes) {
            if (ends.containsKey(o.runId()) && (is(o, "response") || delayOf(o) >= LONG_MS)) {
                long wake = o.answeredAtMs() - ends.get(o.runId());
                wakes.add(wake);
                if (wake > bound) {
                    late.add(o.kind() + " " + o.runId() + " answered " + wake + " ms after its run ended");
                }
            }
        }
        System.out.println("wake-ups after the run's end: " + percentiles(wakes) + " (bound " + bound + " ms)");
        assertTrue(wakes.size() >= RESPONSES / 2, "most waiting clients were served: " + wakes.size());
        assertEquals(List.of(), late, "waiting clients answered late; wake-ups " + percentiles(wakes));
    }

    private static void probe(String url, List<Long> times) {
        long t0 = System.nanoTime();
        long ms;
        try {
            HttpResponse<String> r = Api.CLIENT.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofMillis(API_PORT_PROBE_MS)).GET()
                    .build(), HttpResponse.BodyHandlers.ofString());
            ms = r.statusCode() == 200 ? TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0) : Long.MAX_VALUE;
        } catch (IOException e) {
            ms = Long.MAX_VALUE; // unanswered within API_PORT_PROBE_MS
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        synchronized (times) {
            times.add(ms);
        }
    }

    // ------------------------------------------------------------------ the requests

    private static Outcome response(Api api, String kind, String body) throws Exception {
        long t0 = System.nanoTime();
        long asked = System.currentTimeMillis();
        HttpResponse<String> r = Api.CLIENT.send(post(api, "/v1/responses", body, RUN_DEADLINE_MS), HttpResponse.BodyHandlers.ofString());
        String detail = r.body();
        if (r.statusCode() == 200 && !detail.contains("\"status\":\"completed\"")) {
            return outcome(kind, -1, t0, RUN_DEADLINE_MS, r, "not completed: " + detail);
        }
        Outcome answered = outcome(kind, r.statusCode(), t0, RUN_DEADLINE_MS, r, detail);
        // A response's id is its run's, without the dashes.
        Matcher id = Pattern.compile("\"id\":\"resp_([0-9a-f]{8})([0-9a-f]{4})([0-9a-f]{4})([0-9a-f]{4})([0-9a-f]{12})\"")
                .matcher(detail);
        return r.statusCode() == 200 && id.find() ? answered.waitedFor(String.join("-", id.group(1), id.group(2),
                id.group(3), id.group(4), id.group(5)), asked) : answered;
    }

    private static Outcome streamedResponse(Api api, String kind, String body) throws Exception {
        long t0 = System.nanoTime();
        HttpResponse<String> r = Api.CLIENT.send(post(api, "/v1/responses", body, RUN_DEADLINE_MS), HttpResponse.BodyHandlers.ofString());
        String text = r.body();
        if (r.statusCode() == 200 && !(text.contains("event: response.completed") && text.endsWith("data: [DONE]\n\n"))) {
            return outcome(kind, -1, t0, RUN_DEADLINE_MS, r, "did not complete: " + text);
        }
        return outcome(kind, r.statusCode(), t0, RUN_DEADLINE_MS, r, text.length() + " bytes");
    }

    /** Posts a message, then waits for its run with {@code /wait?timeout=30}. */
    private static Outcome waitForRun(Api api, String kind, String thread, String text) throws Exception {
        long t0 = System.nanoTime();
        String body = Json.createObjectBuilder().add("thread_key", thread).add("text", text).build().toString();
        HttpResponse<String> posted = Api.CLIENT.send(post(api, "/v1/messages", body, STORE_DEADLINE_MS),
                HttpResponse.BodyHandlers.ofString());
        if (posted.statusCode() != 202) {
            return outcome(kind, posted.statusCode(), t0, RUN_DEADLINE_MS, posted, posted.body());
        }
        String runId = Rpc.parse(posted.body()).getString("run_id");
        long asked = System.currentTimeMillis();
        HttpResponse<String> r = Api.CLIENT.send(HttpRequest.newBuilder(URI.create(api.base + "/v1/runs/" + runId
                + "/wait?timeout=" + RUN_DEADLINE_MS / 1000)).timeout(Duration.ofMillis(RUN_DEADLINE_MS + GRACE_MS)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() == 200 && !r.body().contains("\"state\":\"succeeded\"")) {
            return outcome(kind, -1, t0, RUN_DEADLINE_MS, r, "not succeeded: " + r.body());
        }
        return outcome(kind, r.statusCode(), t0, RUN_DEADLINE_MS, r, r.body()).waitedFor(runId, asked);
    }

    /** Posts a chat message, then follows the chat thread's events from its start until its turn completed. */
    private static Outcome chatStream(Api api, String kind, String thread, String text) throws Exception {
        long t0 = System.nanoTime();
        String body = Json.createObjectBuilder().add("channel", "web").add("thread_id", thread).add("content", text).build()
                .toString();
        HttpResponse<String> posted = Api.CLIENT.send(post(api, "/v1/chat/messages", body, STORE_DEADLINE_MS),
                HttpResponse.BodyHandlers.ofString());
        if (posted.statusCode() != 202) {
            return outcome(kind, posted.statusCode(), t0, RUN_DEADLINE_MS, posted, posted.body());
        }
        String chatThread = Rpc.parse(posted.body()).getString("thread_id");
        HttpResponse<InputStream> r = Api.CLIENT.send(HttpRequest.newBuilder(URI.create(api.base + "/v1/chat/threads/"
                + chatThread + "/events?last_event_id=0")).header("Accept", "text/event-stream")
                .timeout(Duration.ofMillis(RUN_DEADLINE_MS)).GET().build(), HttpResponse.BodyHandlers.ofInputStream());
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(r.body(), StandardCharsets.UTF_8))) {
            if (r.statusCode() != 200) {
                return outcome(kind, r.statusCode(), t0, RUN_DEADLINE_MS, r, "");
            }
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                if (line.equals("event: turn/completed")) {
                    return outcome(kind, 200, t0, RUN_DEADLINE_MS, r, "turn completed");
                }
            }
        }
        return outcome(kind, -1, t0, RUN_DEADLINE_MS, r, "the stream ended before the turn completed");
    }

    /**
     * The plain requests go as the JDK's HTTP client sends them by default: each new connection
     * asks to upgrade to cleartext HTTP/2 (the server answers in HTTP/1.1; many upgrades at once
     * once tripped Liberty's upgrade handling, which answered some with GOAWAY).
     */
    private static final HttpClient JDK_DEFAULT = HttpClient.newHttpClient();

    private static Outcome plain(Api api, String kind, String path, String body, int expected) throws Exception {
        long t0 = System.nanoTime();
        HttpResponse<String> r = JDK_DEFAULT.send(post(api, path, body, STORE_DEADLINE_MS), HttpResponse.BodyHandlers.ofString());
        boolean ok = r.statusCode() == expected && (!kind.startsWith("rpc/") || r.body().contains("\"result\""));
        return outcome(kind, ok ? 200 : r.statusCode() == 200 ? -1 : r.statusCode(), t0, STORE_DEADLINE_MS, r, r.body());
    }

    private static HttpRequest post(Api api, String path, String body, long deadlineMs) {
        return HttpRequest.newBuilder(URI.create(api.base + path)).header("Content-Type", "application/json")
                .timeout(Duration.ofMillis(deadlineMs + GRACE_MS)).POST(HttpRequest.BodyPublishers.ofString(body)).build();
    }

    private static Outcome outcome(String kind, int status, long t0, long deadlineMs, HttpResponse<?> r, String detail) {
        return new Outcome(kind, status, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0), deadlineMs,
                r.headers().firstValue("Retry-After").orElse(null), detail.length() > 300 ? detail.substring(0, 300) : detail);
    }

    // ------------------------------------------------------------------ what the test reads

    /** Per kind: served/refused, and the served requests' p50 and max in ms. */
    private static String summary(List<Outcome> outcomes) {
        Map<String, List<Outcome>> byKind = outcomes.stream().collect(Collectors.groupingBy(Outcome::kind, TreeMap::new,
                Collectors.toList()));
        return byKind.entrySet().stream().map(e -> {
            List<Long> served = e.getValue().stream().filter(o -> !o.refused()).map(Outcome::ms).sorted().toList();
            long refused = e.getValue().stream().filter(Outcome::refused).count();
            return e.getKey() + " " + served.size() + " served (p50 " + (served.isEmpty() ? "-" : served.get(served.size() / 2))
                    + " ms, max " + (served.isEmpty() ? "-" : served.get(served.size() - 1)) + " ms), " + refused + " refused";
        }).collect(Collectors.joining("; "));
    }

    private static String percentiles(List<Long> ms) {
        synchronized (ms) {
            List<Long> sorted = ms.stream().sorted(Comparator.naturalOrder()).toList();
            return sorted.isEmpty() ? "none" : sorted.size() + " (p50 " + sorted.get(sorted.size() / 2) + " ms, p95 "
                    + sorted.get((int) (sorted.size() * 0.95)) + " ms, max " + sorted.get(sorted.size() - 1) + " ms)";
        }
    }

    /** Engine calls of this instance begun since {@code sinceMicros} and not yet ended, as its scripted engine's journal says. */
    private static long executingInTheEngine(long sinceMicros) {
        Path journal = Instance.journalDir().resolve(NAME + ".jsonl");
        if (!Files.exists(journal)) { // no run has started yet
            return 0;
        }
        return EngineTrace.read(List.of(journal)).calls().stream()
                .filter(c -> NAME.equals(c.instance()) && c.start() >= sinceMicros && c.end() == null).count();
    }

    private static String threadDump() throws IOException, InterruptedException {
        String pid = Files.readString(Instance.outputDir(NAME).resolve(".pid/switchboard.pid")).strip();
        Process jcmd = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(), pid,
                "Thread.print").redirectErrorStream(true).start();
        String dump = new String(jcmd.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(jcmd.waitFor(30, TimeUnit.SECONDS) && jcmd.exitValue() == 0, "jcmd failed: " + dump);
        return dump;
    }

    /** Frames a waiting thread passes through on its way to the code that chose to wait. */
    private static final Pattern WAITING_MACHINERY = Pattern.compile(
            "at (java\\.util\\.concurrent\\.|jdk\\.internal\\.|java\\.lang\\.Object\\.wait|java\\.lang\\.Thread\\.sleep)");

    /**
     * The server's request threads that wait (parked, sleeping or in {@code Object.wait}) where
     * Switchboard's code chose to: the first frame past the waiting machinery is ours. (A thread
     * held by the runtime itself, loading a class say, is not.)
     */
    private static List<String> requestThreadsParkedIn(String dump) {
        List<String> found = new ArrayList<>();
        for (String thread : dump.split("\n\n")) {
            if (!thread.startsWith("\"Default Executor") || !thread.contains("State: WAITING")
                    && !thread.contains("State: TIMED_WAITING")) {
                continue;
            }
            thread.lines().map(String::strip).filter(l -> l.startsWith("at ") && !WAITING_MACHINERY.matcher(l).lookingAt())
                    .findFirst().filter(frame -> frame.startsWith("at dev.switchboard.")).ifPresent(frame -> found.add(thread));
        }
        return found;
    }
}
