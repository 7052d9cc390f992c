package dev.switchboard.bench;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * One user's bursts (issue 49): C concurrent JSON-RPC {@code turn/start}s, each on a thread of its
 * own, against C concurrent {@code POST /v1/messages} — R rounds of each after W unmeasured, on new
 * threads every time. A turn start on another thread than the runtime's session used to lock the
 * user's runtime row for its whole transaction, so one user's turns queued behind each other;
 * both kinds should now take about the same. Reports each kind's latency, p50/p99 (request sent to
 * answer received).
 */
public final class TurnBurstBench {

    static final String USAGE = """
            usage: TurnBurstBench [--url http://127.0.0.1:9080] [--concurrency 30] [--rounds 20] [--warm-up 5] [--label text]
              --url          base URL of a running Switchboard server
              --concurrency  requests sent at once in a round, each on a thread of its own
              --rounds       rounds measured of each kind
              --warm-up      rounds of each kind run first, not measured
              --label        free text printed with the results""";

    record Options(URI url, int concurrency, int rounds, int warmUp, String label) {

        static Options parse(String[] args) {
            Map<String, String> o = Cli.options(args);
            for (String name : o.keySet()) {
                if (!List.of("--url", "--concurrency", "--rounds", "--warm-up", "--label").contains(name)) {
                    throw new IllegalArgumentException("unknown option " + name);
                }
            }
            return new Options(URI.create(Cli.url(o.getOrDefault("--url", "http://127.0.0.1:9080"))),
                    Cli.positive("--concurrency", o.getOrDefault("--concurrency", "30")),
                    Cli.positive("--rounds", o.getOrDefault("--rounds", "20")),
                    Integer.parseInt(o.getOrDefault("--warm-up", "5")), o.getOrDefault("--label", ""));
        }
    }

    private final Options options;
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10)).build();

    TurnBurstBench(Options options) {
        this.options = options;
    }

    public static void main(String[] args) {
        Cli.main(args, Options::parse, USAGE, o -> new TurnBurstBench(o)::run);
    }

    Cli.Report run() throws Exception {
        new SwitchboardClient(options.url()).checkReady();
        ExecutorService senders = Executors.newFixedThreadPool(options.concurrency());
        try {
            List<Long> turns = new ArrayList<>();
            List<Long> messages = new ArrayList<>();
            List<String> problems = new ArrayList<>();
            for (int round = 0; round < options.warmUp() + options.rounds(); round++) {
                boolean measured = round >= options.warmUp();
                burst(senders, true, measured ? turns : new ArrayList<>(), problems);
                burst(senders, false, measured ? messages : new ArrayList<>(), problems);
            }
            return report(turns, messages, problems);
        } finally {
            senders.shutdownNow();
        }
    }

    /** One round: C requests of one kind at once, each on a new thread; their latencies into {@code into}. */
    private void burst(ExecutorService senders, boolean turn, List<Long> into, List<String> problems) {
        List<CompletableFuture<Long>> sent = new ArrayList<>();
        for (int i = 0; i < options.concurrency(); i++) {
            String thread = "bench-burst-" + UUID.randomUUID();
            HttpRequest request = turn
                    ? post("/rpc", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"turn/start\",\"params\":{\"thread_id\":\"" + thread
                            + "\",\"input\":[{\"type\":\"message\",\"content\":[{\"type\":\"input_text\",\"text\":\"hi\"}]}]}}")
                    : post("/v1/messages", "{\"thread_key\":\"" + thread + "\",\"text\":\"hi\"}");
            sent.add(CompletableFuture.supplyAsync(() -> {
                long start = System.nanoTime();
                try {
                    HttpResponse<String> answer = http.send(request, HttpResponse.BodyHandlers.ofString());
                    boolean ok = turn ? answer.statusCode() == 200 && answer.body().contains("\"turn_id\"")
                            : answer.statusCode() == 202;
                    if (!ok) {
                        synchronized (problems) {
                            problems.add(answer.statusCode() + " " + answer.body());
                        }
                        return null;
                    }
                    return System.nanoTime() - start;
                } catch (Exception e) {
                    synchronized (problems) {
                        problems.add(e.toString());
                    }
                    return null;
                }
            }, senders));
        }
        for (CompletableFuture<Long> s : sent) {
            Long nanos = s.join();
            if (nanos != null) {
                into.add(nanos);
            }
        }
    }

    private HttpRequest post(String path, String body) {
        return HttpRequest.newBuilder(options.url().resolve(path)).header("Content-Type", "application/json")
                .timeout(Duration.ofSeconds(60)).POST(HttpRequest.BodyPublishers.ofString(body)).build();
    }

    private Cli.Report report(List<Long> turns, List<Long> messages, List<String> problems) {
        long[] t = turns.stream().mapToLong(Long::longValue).sorted().toArray();
        long[] m = messages.stream().mapToLong(Long::longValue).sorted().toArray();
        double tp50 = Percentiles.nearestRank(t, 50) / 1e6;
        double tp99 = Percentiles.nearestRank(t, 99) / 1e6;
        double mp50 = Percentiles.nearestRank(m, 50) / 1e6;
        double mp99 = Percentiles.nearestRank(m, 99) / 1e6;
        boolean ok = problems.isEmpty();
        String human = String.format(Locale.ROOT, """
                turn/start     %d answered, %d at once on threads of their own: p50 %.1f ms, p99 %.1f ms
                /v1/messages   %d answered, %d at once on threads of their own: p50 %.1f ms, p99 %.1f ms
                problems       %d%s
                verdict        %s""", t.length, options.concurrency(), tp50, tp99, m.length, options.concurrency(), mp50,
                mp99, problems.size(), problems.isEmpty() ? "" : " (first: " + problems.get(0) + ")", ok ? "OK" : "FAILED");
        String json = String.format(Locale.ROOT, "{\"label\":\"%s\",\"concurrency\":%d,\"rounds\":%d,"
                + "\"turn_start_p50_ms\":%.1f,\"turn_start_p99_ms\":%.1f,\"messages_p50_ms\":%.1f,\"messages_p99_ms\":%.1f,"
                + "\"problems\":%d,\"ok\":%s}", options.label().replace("\"", "'"), options.concurrency(), options.rounds(),
                tp50, tp99, mp50, mp99, problems.size(), ok);
        return Cli.Report.of(human, json, ok);
    }
}
