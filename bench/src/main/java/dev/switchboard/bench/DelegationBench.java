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
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * Sub-agent delegation trees, one at a time: a fork of F children of the {@code worker} agent (echo
 * engine) from one outer run, or a chain of D paths (the entry handler and D-1 {@code link} agents,
 * scripted, each calling the next; the last answers). Each tree is a message posted to
 * {@code /v1/messages} on a thread of its own, timed from the POST to the run's end seen by a
 * long-poll of {@code /v1/runs/{id}/wait}; its answer is checked (every child's reply, in order).
 * Needs an instance running the scripted engine with those agents (scripts/bench.sh delegation).
 */
public final class DelegationBench {

    static final String USAGE = """
            usage: DelegationBench [--url http://127.0.0.1:9080] --shape fork|chain [--size 50] [--n 20] [--warm-up 20] [--label text]
              --url      base URL of a running Switchboard server (scripted engine, agents worker and link)
              --shape    fork: one call to each of size workers at once; chain: a path of size segments below the root
              --size     children of the fork, or length of the chain
              --n        trees to measure, one after another
              --warm-up  trees run first, not measured
              --label    free text printed with the results""";

    record Options(URI url, String shape, int size, int n, int warmUp, String label) {

        static Options parse(String[] args) {
            Map<String, String> o = Cli.options(args);
            for (String name : o.keySet()) {
                if (!List.of("--url", "--shape", "--size", "--n", "--warm-up", "--label").contains(name)) {
                    throw new IllegalArgumentException("unknown option " + name);
                }
            }
            String shape = o.getOrDefault("--shape", "");
            if (!shape.equals("fork") && !shape.equals("chain")) {
                throw new IllegalArgumentException("--shape must be fork or chain");
            }
            return new Options(URI.create(Cli.url(o.getOrDefault("--url", "http://127.0.0.1:9080"))), shape,
                    Cli.positive("--size", o.getOrDefault("--size", "50")), Cli.positive("--n", o.getOrDefault("--n", "20")),
                    Integer.parseInt(o.getOrDefault("--warm-up", "20")), o.getOrDefault("--label", ""));
        }
    }

    private record Sample(long nanos, String problem) {
    }

    private final Options options;
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10)).build();

    DelegationBench(Options options) {
        this.options = options;
    }

    public static void main(String[] args) {
        Cli.main(args, Options::parse, USAGE, o -> new DelegationBench(o)::run);
    }

    /** The outer run's script, and the answer it must end with. */
    String script() {
        if (options.shape().equals("fork")) {
            return IntStream.range(0, options.size()).mapToObj(i -> "call worker {w" + i + "}")
                    .collect(Collectors.joining(" & ")) + "; replies";
        }
        String script = "end";
        for (int i = 1; i < options.size(); i++) {
            script = "call link {" + script + "}; replies";
        }
        return script;
    }

    String expected() {
        if (options.shape().equals("fork")) {
            return IntStream.range(0, options.size()).mapToObj(i -> "worker: w" + i).collect(Collectors.joining(" | "));
        }
        return "link: ".repeat(options.size() - 1) + "end";
    }

    Cli.Report run() throws Exception {
        new SwitchboardClient(options.url()).checkReady();
        for (int i = 0; i < options.warmUp(); i++) {
            tree();
        }
        List<Sample> samples = new ArrayList<>();
        for (int i = 0; i < options.n(); i++) {
            samples.add(tree());
        }
        return report(samples);
    }

    private Sample tree() throws Exception {
        String body = "{\"thread_key\":\"bench-deleg-" + UUID.randomUUID() + "\",\"text\":\"" + script() + "\"}";
        long start = System.nanoTime();
        HttpResponse<String> posted = http.send(HttpRequest.newBuilder(options.url().resolve("/v1/messages"))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
        if (posted.statusCode() != 202) {
            return new Sample(0, "POST answered " + posted.statusCode() + ": " + posted.body());
        }
        String runId = field(posted.body(), "run_id");
        HttpResponse<String> done = http.send(HttpRequest.newBuilder(options.url().resolve("/v1/runs/" + runId + "/wait?timeout=60"))
                .GET().build(), HttpResponse.BodyHandlers.ofString());
        long nanos = System.nanoTime() - start;
        String text = done.body().contains("\"status\":\"succeeded\"") ? field(done.body(), "text") : null;
        return new Sample(nanos, expected().equals(text) ? null : "run " + runId + " ended " + done.body());
    }

    /** A string member of a flat JSON text (the envelope's own fields; the bench carries no JSON library). */
    private static String field(String json, String name) {
        int at = json.indexOf("\"" + name + "\":\"");
        if (at < 0) {
            return null;
        }
        int from = at + name.length() + 4;
        return json.substring(from, json.indexOf('"', from));
    }

    private Cli.Report report(List<Sample> samples) {
        long[] times = samples.stream().filter(s -> s.problem() == null).mapToLong(Sample::nanos).sorted().toArray();
        long failed = samples.stream().filter(s -> s.problem() != null).count();
        String firstProblem = samples.stream().map(Sample::problem).filter(p -> p != null).findFirst().orElse("");
        double p50 = Percentiles.nearestRank(times, 50) / 1e6;
        double p99 = Percentiles.nearestRank(times, 99) / 1e6;
        double max = times.length == 0 ? 0 : times[times.length - 1] / 1e6;
        boolean ok = failed == 0;
        String what = options.shape().equals("fork") ? "fork of " + options.size() + " children"
                : "chain of " + options.size() + " paths";
        String human = String.format(Locale.ROOT, """
                trees       %d/%d answered in full (%s, one at a time); %d failed%s
                tree time   p50 %.1f ms, p99 %.1f ms, max %.1f ms (POST to the run's end)
                verdict     %s""", samples.size() - failed, samples.size(), what, failed,
                firstProblem.isEmpty() ? "" : " (" + firstProblem + ")", p50, p99, max, ok ? "OK" : "FAILED");
        String json = String.format(Locale.ROOT, "{\"label\":\"%s\",\"shape\":\"%s\",\"size\":%d,\"n\":%d,"
                + "\"p50_ms\":%.1f,\"p99_ms\":%.1f,\"max_ms\":%.1f,\"failed\":%d,\"ok\":%s}",
                options.label().replace("\"", "'"), options.shape(), options.size(), samples.size(), p50, p99, max, failed, ok);
        return Cli.Report.of(human, json, ok);
    }
}
