package dev.switchboard.bench;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.StringReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.stream.Stream;

/**
 * The soak ({@code scripts/soak.sh}): mixed load at a steady rate for some minutes against one
 * instance — messages, waits for their runs, non-streamed and streamed {@code /v1/responses}, chat
 * turns followed on their event stream, JSON-RPC {@code turn/start}, short-lived NDJSON streams,
 * reads — with one NDJSON subscriber open throughout. Each minute it prints the requests, failures
 * and p99 latency of that minute (the NDJSON streams, whose length is the client's, not counted), and the server's heap after a full GC, threads, open files and
 * database connections. It fails (exit 1) when a request failed or a figure grew after the warm-up
 * ({@link SoakTrend}).
 */
public final class SoakBench implements Cli.Benchmark {

    static final String USAGE = """
            usage: SoakBench --url <base> --pid <server pid> --db-url <jdbc url> [--db-user postgres]
                             [--minutes 30] [--rate 20] [--warm-up <minutes>]
              rate: requests started per second, a mix of every kind (default 20)
              warm-up: minutes not judged for growth (default: a fifth of the minutes, at least 1)""";

    /** Every kind of request, in the order the ticks take them. */
    private static final List<String> KINDS = List.of("message", "wait", "response", "streamed", "chat", "rpc", "ndjson",
            "message", "read", "streamed");
    private static final Duration DEADLINE = Duration.ofSeconds(30);

    private final String url;
    private final long pid;
    private final String dbUrl;
    private final String dbUser;
    private final int minutes;
    private final double rate;
    private final int warmUp;
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
    private final AtomicLong tick = new AtomicLong();
    private final AtomicReference<String> lastRun = new AtomicReference<>();
    private static final int CHAT_THREADS = 20;
    private final AtomicReferenceArray<String> chatThreads = new AtomicReferenceArray<>(CHAT_THREADS);
    private final List<Long> minuteLatencies = new ArrayList<>();
    private final AtomicLong minuteFailures = new AtomicLong();
    private final AtomicLong minuteRequests = new AtomicLong();
    private final List<String> failures = new ArrayList<>();

    private SoakBench(Map<String, String> o) {
        url = Cli.url(required(o, "--url"));
        pid = Long.parseLong(required(o, "--pid"));
        dbUrl = required(o, "--db-url");
        dbUser = o.getOrDefault("--db-user", "postgres");
        minutes = Cli.positive("--minutes", o.getOrDefault("--minutes", "30"));
        rate = Cli.positiveNumber("--rate", o.getOrDefault("--rate", "20"));
        warmUp = o.containsKey("--warm-up") ? Integer.parseInt(o.get("--warm-up")) : Math.max(1, minutes / 5);
    }

    private static String required(Map<String, String> o, String name) {
        String v = o.get(name);
        if (v == null) {
            throw new IllegalArgumentException("missing " + name);
        }
        return v;
    }

    public static void main(String[] args) {
        Cli.main(args, a -> new SoakBench(Cli.options(a)), USAGE, soak -> soak);
    }

    @Override
    public Cli.Report run() throws Exception {
        // Enough client threads for every request in flight at the rate (each lasts well under the deadline).
        ThreadPoolExecutor clients = new ThreadPoolExecutor(64, 64, 0, TimeUnit.MILLISECONDS, new ArrayBlockingQueue<>(256));
        ScheduledExecutorService ticks = Executors.newSingleThreadScheduledExecutor();
        Thread subscriber = new Thread(this::subscribeThroughout, "soak-subscriber");
        subscriber.setDaemon(true);
        subscriber.start();
        long periodMicros = (long) (1_000_000 / rate);
        ticks.scheduleAtFixedRate(() -> {
            String kind = KINDS.get((int) (tick.getAndIncrement() % KINDS.size()));
            try {
                clients.execute(() -> timed(kind));
            } catch (RejectedExecutionException e) {
                fail("the load generator fell behind its rate (the server answers too slowly)");
            }
        }, 0, periodMicros, TimeUnit.MICROSECONDS);

        List<SoakTrend.Minute> figures = new ArrayList<>();
        System.out.println("minute  requests  failed  p99 ms  heap MB  threads  open files  db connections");
        for (int m = 1; m <= minutes; m++) {
            Thread.sleep(60_000);
            long[] latencies;
            synchronized (minuteLatencies) {
                latencies = minuteLatencies.stream().mapToLong(Long::longValue).sorted().toArray();
                minuteLatencies.clear();
            }
            SoakTrend.Minute minute = new SoakTrend.Minute(m, minuteRequests.getAndSet(0), minuteFailures.getAndSet(0),
                    Percentiles.nearestRank(latencies, 99), ServerHeap.usedAfterFullGc(pid), threads(), openFiles(),
                    dbConnections());
            figures.add(minute);
            System.out.printf("%6d  %8d  %6d  %6d  %7.1f  %7d  %10d  %14d%s%n", m, minute.requests(), minute.failures(),
                    minute.p99Ms(), minute.heapBytes() / 1e6, minute.threads(), minute.openFiles(), minute.dbConnections(),
                    m <= warmUp ? "  (warm-up)" : "");
        }
        ticks.shutdownNow();
        clients.shutdown();
        clients.awaitTermination(DEADLINE.toSeconds() + 5, TimeUnit.SECONDS);
        if (!subscriber.isAlive()) {
            fail("the NDJSON subscriber's stream ended during the soak");
        }

        List<String> grew = SoakTrend.grew(figures, warmUp);
        List<String> failed;
        synchronized (failures) {
            failed = List.copyOf(failures);
        }
        long requests = figures.stream().mapToLong(SoakTrend.Minute::requests).sum();
        StringBuilder human = new StringBuilder(String.format("soak: %d minutes at %.0f requests/s, %d requests, %d failed",
                minutes, rate, requests, failed.size()));
        failed.stream().distinct().limit(10).forEach(f -> human.append("\n  failed: ").append(f));
        grew.forEach(g -> human.append("\n  ").append(g));
        if (grew.isEmpty()) {
            human.append("\n  nothing grew after the warm-up");
        }
        SoakTrend.Minute lastMinute = figures.get(figures.size() - 1);
        String json = Json.createObjectBuilder().add("label", "soak").add("minutes", minutes).add("rate", rate)
                .add("requests", requests).add("failed", failed.size()).add("grew", Json.createArrayBuilder(grew))
                .add("last_p99_ms", lastMinute.p99Ms()).add("last_heap_mb", Math.round(lastMinute.heapBytes() / 1e6))
                .add("last_threads", lastMinute.threads()).add("last_open_files", lastMinute.openFiles())
                .add("last_db_connections", lastMinute.dbConnections()).build().toString();
        return Cli.Report.of(human.toString(), json, failed.isEmpty() && grew.isEmpty());
    }

    // ------------------------------------------------------------------ the requests

    private void timed(String kind) {
        long t0 = System.nanoTime();
        try {
            request(kind);
            minuteRequests.incrementAndGet();
            if (!kind.equals("ndjson")) { // its length is the client's second of reading, not the server's
                synchronized (minuteLatencies) {
                    minuteLatencies.add(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0));
                }
            }
        } catch (Exception e) {
            fail(kind + ": " + e.getMessage());
        }
    }

    private void request(String kind) throws Exception {
        long n = tick.get();
        String thread = "soak-" + kind + "-" + (n % 50);
        switch (kind) {
            case "message" -> lastRun.set(json(expect(post("/v1/messages", message(thread)), 202)).getString("run_id"));
            case "wait" -> {
                String run = json(expect(post("/v1/messages", message(thread)), 202)).getString("run_id");
                String body = expect(get("/v1/runs/" + run + "/wait?timeout=25"), 200);
                check(body.contains("\"state\":\"succeeded\""), "wait: not succeeded: " + body);
            }
            case "response" -> {
                String body = expect(post("/v1/responses", "{\"model\":\"echo\",\"input\":\"soak " + n + "\"}"), 200);
                check(body.contains("\"status\":\"completed\""), "response: not completed: " + body);
            }
            case "streamed" -> {
                String body = expect(post("/v1/responses", "{\"model\":\"echo\",\"input\":\"soak " + n + "\",\"stream\":true}"), 200);
                check(body.contains("event: response.completed") && body.endsWith("data: [DONE]\n\n"), "streamed: incomplete");
            }
            case "chat" -> chat(n);
            case "rpc" -> {
                String body = expect(post("/rpc", "{\"jsonrpc\":\"2.0\",\"id\":" + n + ",\"method\":\"turn/start\",\"params\":"
                        + "{\"thread_id\":\"" + thread + "\",\"input\":[{\"type\":\"message\",\"role\":\"user\",\"content\":"
                        + "[{\"type\":\"input_text\",\"text\":\"soak\"}]}]}}"), 200);
                check(body.contains("\"result\""), "rpc: " + body);
            }
            case "ndjson" -> shortStream();
            case "read" -> {
                String run = lastRun.get();
                if (run != null) {
                    expect(get("/v1/runs/" + run), 200);
                }
            }
            default -> throw new IllegalStateException(kind);
        }
    }

    /** Opens a chat thread's events, sends it a message, reads until a turn completed. */
    private void chat(long n) throws IOException, InterruptedException {
        String chatThread = chatThreads.get((int) (n % CHAT_THREADS));
        if (chatThread == null) { // made once per slot by its first message, then reused
            chatThread = json(expect(post("/v1/chat/messages", "{\"channel\":\"web\",\"thread_id\":\"soak-chat-"
                    + (n % CHAT_THREADS) + "\",\"content\":\"first\"}"), 202)).getString("thread_id");
            chatThreads.set((int) (n % CHAT_THREADS), chatThread);
        }
        HttpResponse<InputStream> events = http.send(HttpRequest.newBuilder(URI.create(url + "/v1/chat/threads/" + chatThread
                + "/events")).header("Accept", "text/event-stream").timeout(DEADLINE).GET().build(),
                HttpResponse.BodyHandlers.ofInputStream());
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(events.body(), StandardCharsets.UTF_8))) {
            check(events.statusCode() == 200, "chat events: " + events.statusCode());
            check(": subscribed".equals(lines.readLine()), "chat events: no greeting");
            expect(post("/v1/chat/messages", "{\"channel\":\"web\",\"thread_id\":\"" + chatThread + "\",\"content\":\"soak\"}"), 202);
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                if (line.equals("event: turn/completed")) {
                    return;
                }
            }
        }
        throw new IOException("chat events ended before the turn completed");
    }

    /** An NDJSON stream opened, read for a second, and closed by the client. */
    private void shortStream() throws IOException, InterruptedException {
        HttpResponse<InputStream> r = http.send(HttpRequest.newBuilder(URI.create(url + "/rpc/stream"))
                .header("Accept", "application/x-ndjson").timeout(DEADLINE).GET().build(), HttpResponse.BodyHandlers.ofInputStream());
        try (InputStream in = r.body()) {
            check(r.statusCode() == 200, "ndjson: " + r.statusCode());
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(1);
            byte[] buffer = new byte[8192];
            while (System.nanoTime() < end) {
                if (in.available() > 0) {
                    in.read(buffer);
                } else {
                    Thread.sleep(50); // a client reading at its own pace
                }
            }
        }
    }

    /** One NDJSON subscriber that stays for the whole soak, reading everything (its end is a failure). */
    private void subscribeThroughout() {
        try {
            HttpResponse<InputStream> r = http.send(HttpRequest.newBuilder(URI.create(url + "/rpc/stream"))
                    .header("Accept", "application/x-ndjson").GET().build(), HttpResponse.BodyHandlers.ofInputStream());
            try (InputStream in = r.body()) {
                byte[] buffer = new byte[65536];
                while (in.read(buffer) >= 0) {
                    // read and dropped: the stream must only stay open and keep up
                }
            }
        } catch (IOException e) {
            fail("subscriber: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private String message(String thread) {
        return "{\"thread_key\":\"" + thread + "\",\"text\":\"soak\"}";
    }

    private HttpResponse<String> post(String path, String body) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create(url + path)).header("Content-Type", "application/json")
                .timeout(DEADLINE).POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create(url + path)).timeout(DEADLINE).GET().build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static String expect(HttpResponse<String> r, int status) throws IOException {
        if (r.statusCode() != status) {
            throw new IOException(r.request().method() + " " + r.uri().getPath() + " answered " + r.statusCode() + ": "
                    + r.body().substring(0, Math.min(200, r.body().length())));
        }
        return r.body();
    }

    private static void check(boolean ok, String what) throws IOException {
        if (!ok) {
            throw new IOException(what.length() > 300 ? what.substring(0, 300) : what);
        }
    }

    private static JsonObject json(String body) {
        try (JsonReader reader = Json.createReader(new StringReader(body))) {
            return reader.readObject();
        }
    }

    private void fail(String what) {
        minuteFailures.incrementAndGet();
        synchronized (failures) {
            failures.add(what);
        }
    }

    // ------------------------------------------------------------------ the server's figures

    private int threads() throws IOException {
        try (Stream<String> lines = Files.lines(Path.of("/proc", Long.toString(pid), "status"))) {
            return lines.filter(l -> l.startsWith("Threads:")).map(l -> Integer.parseInt(l.substring(8).strip())).findFirst()
                    .orElseThrow(() -> new IOException("no thread count for " + pid));
        }
    }

    private int openFiles() throws IOException {
        try (Stream<Path> fds = Files.list(Path.of("/proc", Long.toString(pid), "fd"))) {
            return (int) fds.count();
        }
    }

    /** The server's connections to its database (this query's own not counted). */
    private int dbConnections() throws SQLException {
        try (Connection c = DriverManager.getConnection(dbUrl, dbUser, "");
                Statement s = c.createStatement();
                ResultSet r = s.executeQuery("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                        + " AND pid <> pg_backend_pid() AND backend_type = 'client backend'")) {
            r.next();
            return r.getInt(1);
        }
    }
}
