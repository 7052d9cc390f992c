package dev.switchboard.bench;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Function;

/**
 * The read and list routes on a database {@link ScaleSeed} filled (issue 38's scale scenario): each
 * route {@code --n} times from {@code --concurrency} clients, on seeded runs and threads picked at
 * random, after {@code --warm-up} unmeasured calls of each. Reports p50, p99 and max latency per route
 * and fails when one answers anything but 200 — except a run that retention has already deleted,
 * which must answer 404 (counted apart: the seed's oldest half is past a 30-day retention).
 *
 * <pre>ReadBench --url URL --runs N --threads T [--n 2000] [--concurrency 4] [--warm-up 200] [--label L]</pre>
 */
public final class ReadBench {

    private record Route(String name, Function<ThreadLocalRandom, HttpRequest> request, boolean mayBeGone) {
    }

    private ReadBench() {
    }

    public static void main(String[] args) throws Exception {
        String url = null;
        long runs = 0;
        long threads = 0;
        int n = 2000;
        int concurrency = 4;
        int warmUp = 200;
        String label = "reads";
        for (int i = 0; i < args.length; i += 2) {
            switch (args[i]) {
                case "--url" -> url = args[i + 1];
                case "--runs" -> runs = Long.parseLong(args[i + 1]);
                case "--threads" -> threads = Long.parseLong(args[i + 1]);
                case "--n" -> n = Integer.parseInt(args[i + 1]);
                case "--concurrency" -> concurrency = Integer.parseInt(args[i + 1]);
                case "--warm-up" -> warmUp = Integer.parseInt(args[i + 1]);
                case "--label" -> label = args[i + 1];
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        if (url == null || runs < 1 || threads < 1) {
            System.err.println("usage: ReadBench --url URL --runs N --threads T [--n N] [--concurrency C]");
            System.exit(2);
        }
        URI base = URI.create(url);
        long seededRuns = runs;
        long seededThreads = threads;
        long perThread = (runs + threads - 1) / threads;
        Function<ThreadLocalRandom, String> thread = r -> ScaleSeed.THREAD_PREFIX + r.nextLong(seededThreads);
        List<Route> routes = List.of(
                new Route("GET /v1/runs/{id}", r -> get(base, "/v1/runs/" + ScaleSeed.runId(1 + r.nextLong(seededRuns))),
                        true),
                new Route("GET /v1/threads/{key}/runs (first page)",
                        r -> get(base, "/v1/threads/" + thread.apply(r) + "/runs?limit=50"), false),
                new Route("GET /v1/threads/{key}/runs (a later page)", r -> get(base, "/v1/threads/"
                        + thread.apply(r) + "/runs?limit=50&after_seq=" + r.nextLong(perThread)), false),
                new Route("GET /v1/threads/{key}/items (first page)",
                        r -> get(base, "/v1/threads/" + thread.apply(r) + "/items?limit=50"), false),
                new Route("thread/list (a page from a random key)", r -> rpc(base, "{\"jsonrpc\":\"2.0\",\"id\":1,"
                        + "\"method\":\"thread/list\",\"params\":{\"limit\":50,\"after\":\"" + thread.apply(r) + "\"}}"),
                        false),
                new Route("thread/read (a thread's first page)", r -> rpc(base, "{\"jsonrpc\":\"2.0\",\"id\":1,"
                        + "\"method\":\"thread/read\",\"params\":{\"thread_id\":\"" + thread.apply(r) + "\",\"limit\":50}}"),
                        false));
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(10)).build();
        ExecutorService clients = Executors.newFixedThreadPool(concurrency);
        boolean ok = true;
        Map<String, String> results = new LinkedHashMap<>();
        try {
            for (Route route : routes) {
                measure(http, clients, route, warmUp, concurrency);
                Measured m = measure(http, clients, route, n, concurrency);
                ok &= m.failures == 0;
                System.out.printf(Locale.ROOT, "%-45s p50 %6.1f ms  p99 %6.1f ms  max %6.1f ms  (%d calls, %d gone, %d failed)%n",
                        route.name, m.p(50), m.p(99), m.max(), n, m.gone, m.failures);
                results.put(route.name, String.format(Locale.ROOT, "{\"p50_ms\":%.1f,\"p99_ms\":%.1f,\"max_ms\":%.1f,"
                        + "\"gone\":%d,\"failed\":%d}", m.p(50), m.p(99), m.max(), m.gone, m.failures));
                if (!m.firstFailure.isEmpty()) {
                    System.out.println("  first failure: " + m.firstFailure);
                }
            }
        } finally {
            clients.shutdownNow();
        }
        StringBuilder json = new StringBuilder("RESULT {\"label\":\"" + label + "\",\"n\":" + n + ",\"concurrency\":"
                + concurrency + ",\"routes\":{");
        results.forEach((name, figures) -> json.append('"').append(name).append("\":").append(figures).append(','));
        json.setLength(json.length() - 1);
        System.out.println(json.append("},\"ok\":").append(ok).append('}'));
        System.exit(ok ? 0 : 1);
    }

    private static final class Measured {
        final long[] nanos;
        int gone;
        int failures;
        String firstFailure = "";

        Measured(int n) {
            nanos = new long[n];
        }

        double p(int percentile) {
            return Percentiles.nearestRank(nanos, percentile) / 1e6;
        }

        double max() {
            return nanos.length == 0 ? 0 : nanos[nanos.length - 1] / 1e6;
        }
    }

    private static Measured measure(HttpClient http, ExecutorService clients, Route route, int n, int concurrency)
            throws Exception {
        Measured m = new Measured(n);
        List<Future<?>> running = new ArrayList<>();
        java.util.concurrent.atomic.AtomicInteger next = new java.util.concurrent.atomic.AtomicInteger();
        for (int c = 0; c < concurrency; c++) {
            running.add(clients.submit(() -> {
                ThreadLocalRandom random = ThreadLocalRandom.current();
                for (int i = next.getAndIncrement(); i < n; i = next.getAndIncrement()) {
                    HttpRequest request = route.request.apply(random);
                    long t0 = System.nanoTime();
                    HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
                    m.nanos[i] = System.nanoTime() - t0;
                    boolean rpcError = response.statusCode() == 200 && response.body().contains("\"error\":{");
                    synchronized (m) {
                        if (response.statusCode() == 404 && route.mayBeGone) {
                            m.gone++;
                        } else if (response.statusCode() != 200 || rpcError) {
                            m.failures++;
                            if (m.firstFailure.isEmpty()) {
                                m.firstFailure = request.uri() + " -> " + response.statusCode() + " "
                                        + response.body().substring(0, Math.min(300, response.body().length()));
                            }
                        }
                    }
                }
                return null;
            }));
        }
        for (Future<?> f : running) {
            f.get();
        }
        Arrays.sort(m.nanos);
        return m;
    }

    private static HttpRequest get(URI base, String path) {
        return HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofSeconds(60)).GET().build();
    }

    private static HttpRequest rpc(URI base, String body) {
        return HttpRequest.newBuilder(base.resolve("/rpc")).timeout(Duration.ofSeconds(60))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build();
    }
}
