package dev.switchboard.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@code POST /v1/responses} with {@code stream: true} under load: K clients, each sending its
 * share of N streamed responses one after another (each a new conversation, so a thread of its
 * own), after a warm-up of W. Reports responses per second, time to first byte (request sent to
 * the first byte of the event stream: the {@code response.created} frame, written once the
 * response is stored) and time to {@code data: [DONE]}, and checks every stream ended with
 * {@code response.completed} then {@code [DONE]}.
 */
public final class ResponsesBench {

    static final String USAGE = """
            usage: ResponsesBench [--url http://127.0.0.1:9080] [--n 2000] [--k 50] [--warm-up 1000] [--label text]
              --url      base URL of a running Switchboard server (echo engine)
              --n        streamed responses to measure
              --k        concurrent clients (each one response at a time)
              --warm-up  responses sent first, not measured
              --label    free text printed with the results""";

    record Options(URI url, int n, int k, int warmUp, String label) {

        static Options parse(String[] args) {
            Map<String, String> o = Cli.options(args);
            for (String name : o.keySet()) {
                if (!List.of("--url", "--n", "--k", "--warm-up", "--label").contains(name)) {
                    throw new IllegalArgumentException("unknown option " + name);
                }
            }
            return new Options(URI.create(Cli.url(o.getOrDefault("--url", "http://127.0.0.1:9080"))),
                    Cli.positive("--n", o.getOrDefault("--n", "2000")), Cli.positive("--k", o.getOrDefault("--k", "50")),
                    Integer.parseInt(o.getOrDefault("--warm-up", "1000")), o.getOrDefault("--label", ""));
        }
    }

    /** One streamed response: nanoseconds to the first byte and to the end; whether it completed. */
    private record Sample(long firstByteNanos, long doneNanos, boolean completed, String problem) {
    }

    private final Options options;
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10)).build();

    ResponsesBench(Options options) {
        this.options = options;
    }

    public static void main(String[] args) {
        Cli.main(args, Options::parse, USAGE, o -> new ResponsesBench(o)::run);
    }

    Cli.Report run() throws Exception {
        new SwitchboardClient(options.url()).checkReady();
        if (options.warmUp() > 0) {
            load(options.warmUp());
        }
        long start = System.nanoTime();
        List<Sample> samples = load(options.n());
        double seconds = (System.nanoTime() - start) / 1e9;
        return report(samples, seconds);
    }

    private List<Sample> load(int total) throws Exception {
        ExecutorService clients = Executors.newFixedThreadPool(options.k());
        AtomicInteger next = new AtomicInteger();
        List<Future<List<Sample>>> futures = new ArrayList<>();
        for (int c = 0; c < options.k(); c++) {
            futures.add(clients.submit(() -> {
                List<Sample> mine = new ArrayList<>();
                for (int i = next.getAndIncrement(); i < total; i = next.getAndIncrement()) {
                    mine.add(stream("bench response " + i + " with a few words to stream"));
                }
                return mine;
            }));
        }
        List<Sample> samples = new ArrayList<>();
        for (Future<List<Sample>> f : futures) {
            samples.addAll(f.get());
        }
        clients.shutdown();
        return samples;
    }

    private Sample stream(String input) throws IOException, InterruptedException {
        String body = "{\"model\":\"echo\",\"stream\":true,\"input\":\"" + input + "\"}";
        long sent = System.nanoTime();
        HttpResponse<java.io.InputStream> response = http.send(HttpRequest.newBuilder(options.url().resolve("/v1/responses"))
                .header("Content-Type", "application/json").timeout(Duration.ofSeconds(120))
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofInputStream());
        try (BufferedReader in = new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8))) {
            if (response.statusCode() != 200) {
                return new Sample(0, 0, false, "status " + response.statusCode());
            }
            String line = in.readLine();
            long firstByte = System.nanoTime() - sent;
            boolean completed = false;
            String last = line;
            while (line != null) {
                if (line.equals("event: response.completed")) {
                    completed = true;
                }
                if (!line.isEmpty()) {
                    last = line;
                }
                line = in.readLine();
            }
            long done = System.nanoTime() - sent;
            boolean ended = "data: [DONE]".equals(last);
            return new Sample(firstByte, done, completed && ended, completed && ended ? null
                    : "the stream ended with " + last);
        }
    }

    private Cli.Report report(List<Sample> samples, double seconds) {
        long[] firstByte = samples.stream().filter(Sample::completed).mapToLong(Sample::firstByteNanos).sorted().toArray();
        long[] done = samples.stream().filter(Sample::completed).mapToLong(Sample::doneNanos).sorted().toArray();
        long failed = samples.stream().filter(s -> !s.completed()).count();
        String firstProblem = samples.stream().map(Sample::problem).filter(p -> p != null).findFirst().orElse("");
        double perSecond = samples.size() / seconds;
        double ttfb50 = ms(Percentiles.nearestRank(firstByte, 50));
        double ttfb99 = ms(Percentiles.nearestRank(firstByte, 99));
        double done50 = ms(Percentiles.nearestRank(done, 50));
        double done99 = ms(Percentiles.nearestRank(done, 99));
        boolean ok = failed == 0 && samples.size() == options.n();
        String human = String.format(Locale.ROOT, """
                responses   %d/%d completed with [DONE] (K=%d); %d failed%s
                throughput  %.1f responses/s over %.2f s
                first byte  p50 %.1f ms, p99 %.1f ms (request sent to response.created)
                done        p50 %.1f ms, p99 %.1f ms (request sent to [DONE])
                verdict     %s""", samples.size() - failed, options.n(), options.k(), failed,
                firstProblem.isEmpty() ? "" : " (" + firstProblem + ")", perSecond, seconds, ttfb50, ttfb99, done50, done99,
                ok ? "OK" : "FAILED");
        String json = String.format(Locale.ROOT, "{\"label\":\"%s\",\"n\":%d,\"k\":%d,\"responses_per_s\":%.1f,"
                + "\"ttfb_p50_ms\":%.1f,\"ttfb_p99_ms\":%.1f,\"done_p50_ms\":%.1f,\"done_p99_ms\":%.1f,\"failed\":%d,"
                + "\"ok\":%s}", options.label().replace("\"", "'"), options.n(), options.k(), perSecond, ttfb50, ttfb99,
                done50, done99, failed, ok);
        return Cli.Report.of(human, json, ok);
    }

    private static double ms(long nanos) {
        return nanos / 1e6;
    }

}
