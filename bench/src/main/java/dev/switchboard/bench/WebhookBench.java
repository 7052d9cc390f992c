package dev.switchboard.bench;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Outgoing webhooks' throughput and lag: a receiver on loopback (answers 204 at once), one endpoint
 * hearing {@code turn.completed}, and N messages posted over K threads by C clients; every turn's
 * webhook must arrive, once. Reports deliveries/s (from the first delivery to the last) and the lag
 * from the event's commit (its {@code timestamp}) to its arrival, p50/p99. Needs an instance whose
 * {@code SWITCHBOARD_WEBHOOKS_ALLOWED_NETWORKS} takes 127.0.0.1 (scripts/bench.sh webhooks).
 */
public final class WebhookBench {

    static final String USAGE = """
            usage: WebhookBench [--url http://127.0.0.1:9080] [--n 2000] [--k 50] [--concurrency 16] [--rate 0] [--warm-up 500] [--label text]
              --url          base URL of a running Switchboard server
              --n            messages measured (each a turn, each a webhook)
              --k            threads they go to
              --concurrency  clients posting at once
              --rate         messages per second in all (0: as fast as the clients go)
              --warm-up      messages sent and delivered first, not measured
              --label        free text printed with the results""";

    private static final Pattern TIMESTAMP = Pattern.compile("\"timestamp\":\"([^\"]+)\"");
    private static final Pattern THREAD = Pattern.compile("\"thread_id\":\"([^\"]+)\"");

    record Options(URI url, int n, int k, int concurrency, double rate, int warmUp, String label) {

        static Options parse(String[] args) {
            Map<String, String> o = Cli.options(args);
            for (String name : o.keySet()) {
                if (!List.of("--url", "--n", "--k", "--concurrency", "--rate", "--warm-up", "--label").contains(name)) {
                    throw new IllegalArgumentException("unknown option " + name);
                }
            }
            return new Options(URI.create(Cli.url(o.getOrDefault("--url", "http://127.0.0.1:9080"))),
                    Cli.positive("--n", o.getOrDefault("--n", "2000")), Cli.positive("--k", o.getOrDefault("--k", "50")),
                    Cli.positive("--concurrency", o.getOrDefault("--concurrency", "16")),
                    Double.parseDouble(o.getOrDefault("--rate", "0")), Integer.parseInt(o.getOrDefault("--warm-up", "500")), o.getOrDefault("--label", ""));
        }
    }

    /** One delivery as the receiver saw it. */
    private record Arrival(String id, String thread, long arrivedNanos, long lagMs) {
    }

    private final Options options;
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10)).build();
    private final Map<String, Arrival> arrivals = new ConcurrentHashMap<>();
    private final Set<String> duplicates = ConcurrentHashMap.newKeySet();

    WebhookBench(Options options) {
        this.options = options;
    }

    public static void main(String[] args) {
        Cli.main(args, Options::parse, USAGE, o -> new WebhookBench(o)::run);
    }

    Cli.Report run() throws Exception {
        HttpServer receiver = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 512);
        ExecutorService receiving = Executors.newFixedThreadPool(16);
        receiver.setExecutor(receiving);
        receiver.createContext("/hook", exchange -> {
            long now = System.nanoTime();
            long wall = System.currentTimeMillis();
            String body;
            try (InputStream in = exchange.getRequestBody()) {
                body = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
            String id = exchange.getRequestHeaders().getFirst("webhook-id");
            Matcher ts = TIMESTAMP.matcher(body);
            Matcher thread = THREAD.matcher(body);
            long lag = ts.find() ? wall - Instant.parse(ts.group(1)).toEpochMilli() : -1;
            if (arrivals.putIfAbsent(id, new Arrival(id, thread.find() ? thread.group(1) : "", now, lag)) != null) {
                duplicates.add(id);
            }
            exchange.sendResponseHeaders(204, -1);
            exchange.close();
        });
        receiver.start();
        try {
            String endpoint = register("http://127.0.0.1:" + receiver.getAddress().getPort() + "/hook");
            try {
                String prefix = "wh-" + Long.toString(System.nanoTime(), 36) + "-";
                if (options.warmUp() > 0) {
                    send(prefix + "warm-", options.warmUp());
                    awaitArrivals(options.warmUp(), Duration.ofMinutes(5));
                }
                int before = arrivals.size();
                long start = System.nanoTime();
                send(prefix, options.n());
                boolean all = awaitArrivals(before + options.n(), Duration.ofMinutes(10));
                return report(prefix, start, all);
            } finally {
                call("DELETE", "/v1/webhooks/" + endpoint, null);
            }
        } finally {
            receiver.stop(0);
            receiving.shutdownNow();
        }
    }

    private Cli.Report report(String prefix, long start, boolean all) {
        List<Arrival> measured = arrivals.values().stream().filter(a -> a.thread().startsWith(prefix)
                && !a.thread().startsWith(prefix + "warm-")).toList();
        long[] lags = measured.stream().mapToLong(Arrival::lagMs).sorted().toArray();
        long first = measured.stream().mapToLong(Arrival::arrivedNanos).min().orElse(start);
        long last = measured.stream().mapToLong(Arrival::arrivedNanos).max().orElse(start);
        double window = Math.max(1, last - first) / 1e9;
        double perSecond = measured.size() / window;
        double sinceStart = measured.size() / (Math.max(1, last - start) / 1e9);
        boolean ok = all && measured.size() == options.n() && duplicates.isEmpty();
        String human = String.format("webhooks    %d of %d delivered, %d duplicates%n"
                + "throughput  %.1f deliveries/s (first to last delivery, %.1f s); %.1f/s from the first POST%n"
                + "lag         commit to arrival p50 %d ms, p99 %d ms, max %d ms",
                measured.size(), options.n(), duplicates.size(), perSecond, window, sinceStart,
                Percentiles.nearestRank(lags, 50), Percentiles.nearestRank(lags, 99), lags.length == 0 ? 0 : lags[lags.length - 1]);
        String json = String.format("{\"label\":\"%s\",\"n\":%d,\"k\":%d,\"delivered\":%d,\"duplicates\":%d,"
                + "\"rate\":%.0f,\"deliveries_per_s\":%.1f,\"lag_p50_ms\":%d,\"lag_p99_ms\":%d,\"lag_max_ms\":%d,\"ok\":%b}",
                options.label(), options.n(), options.k(), measured.size(), duplicates.size(), options.rate(), perSecond,
                Percentiles.nearestRank(lags, 50), Percentiles.nearestRank(lags, 99), lags.length == 0 ? 0 : lags[lags.length - 1], ok);
        return Cli.Report.of(human, json, ok);
    }

    private boolean awaitArrivals(int count, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (arrivals.size() < count) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            Thread.sleep(20); // NOPMD: polling a counter the receiver's threads raise
        }
        return true;
    }

    /** Posts {@code n} messages over K threads from C clients (at the rate, if one is set); fails on any answer but 202. */
    private void send(String prefix, int n) throws Exception {
        long begin = System.nanoTime();
        ExecutorService clients = Executors.newFixedThreadPool(options.concurrency());
        try {
            List<Future<?>> sent = new ArrayList<>();
            for (int c = 0; c < options.concurrency(); c++) {
                int client = c;
                sent.add(clients.submit(() -> {
                    for (int i = client; i < n; i += options.concurrency()) {
                        if (options.rate() > 0) { // message i is due at i / rate seconds
                            long wait = begin + (long) (i * 1e9 / options.rate()) - System.nanoTime();
                            if (wait > 0) {
                                TimeUnit.NANOSECONDS.sleep(wait);
                            }
                        }
                        String body = "{\"thread_key\":\"" + prefix + (i % options.k()) + "\",\"text\":\"webhook " + i + "\"}";
                        HttpResponse<String> r = call("POST", "/v1/messages", body);
                        if (r.statusCode() != 202) {
                            throw new SwitchboardClient.BenchException("POST /v1/messages answered " + r.statusCode() + ": " + r.body());
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : sent) {
                f.get(10, TimeUnit.MINUTES);
            }
        } finally {
            clients.shutdownNow();
        }
    }

    private String register(String url) throws IOException, InterruptedException {
        HttpResponse<String> r = call("POST", "/v1/webhooks", "{\"url\":\"" + url + "\",\"event_types\":[\"turn.completed\"]}");
        if (r.statusCode() != 201) {
            throw new SwitchboardClient.BenchException("registering the endpoint answered " + r.statusCode() + ": " + r.body());
        }
        Matcher id = Pattern.compile("\"id\":\"(ep_[^\"]+)\"").matcher(r.body());
        if (!id.find()) {
            throw new SwitchboardClient.BenchException("no endpoint id in " + r.body());
        }
        return id.group(1);
    }

    private HttpResponse<String> call(String method, String path, String json) throws IOException, InterruptedException {
        HttpRequest.Builder b = HttpRequest.newBuilder(options.url().resolve(path)).timeout(Duration.ofSeconds(60));
        if (json == null) {
            b.method(method, HttpRequest.BodyPublishers.noBody());
        } else {
            b.header("Content-Type", "application/json").method(method, HttpRequest.BodyPublishers.ofString(json));
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }
}
