package dev.switchboard.it;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The operators' files under {@code ops/} — the Prometheus alert rules, their promtool unit tests
 * and the Grafana dashboard — as the tests read them, and {@code promtool} to check them with.
 */
final class OpsFiles {

    static final Path ROOT = Path.of(System.getProperty("project.root", "..")).toAbsolutePath().normalize();
    static final Path RULES = ROOT.resolve("ops/prometheus/switchboard-alerts.yml");
    static final Path RULES_TESTS = ROOT.resolve("ops/prometheus/switchboard-alerts.test.yml");
    static final Path DASHBOARD = ROOT.resolve("ops/grafana/switchboard-dashboard.json");
    static final Path OPERATIONS = ROOT.resolve("docs/operations.md");

    /**
     * A sample name as Prometheus reads it from /metrics, with its {@code _total}, {@code _bucket}, …
     * suffix: Switchboard's own, and Liberty's connection pool's (camel case, as Liberty names them).
     */
    private static final Pattern METRIC = Pattern.compile("(?:switchboard|connectionpool)_[A-Za-z0-9_]+");

    private OpsFiles() {
    }

    static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new AssertionError("cannot read " + ROOT.relativize(file), e);
        }
    }

    static JsonObject dashboard() {
        try (JsonReader reader = Json.createReader(new StringReader(read(DASHBOARD)))) {
            return reader.readObject();
        }
    }

    /** Every PromQL expression of the dashboard's panels and template variables' queries, as written. */
    static List<String> dashboardExpressions() {
        List<String> exprs = new ArrayList<>();
        dashboard().getJsonArray("panels").forEach(p -> p.asJsonObject().getJsonArray("targets")
                .forEach(t -> exprs.add(t.asJsonObject().getString("expr"))));
        return exprs;
    }

    /** The sample names {@code text} mentions. */
    static SortedSet<String> metricNames(String text) {
        SortedSet<String> names = new TreeSet<>();
        Matcher m = METRIC.matcher(text);
        while (m.find()) {
            names.add(m.group());
        }
        return names;
    }

    /** promtool: Debian's at /usr/bin, else the first on the PATH; the tests fail, never skip, without it. */
    static Path promtool() {
        Path debian = Path.of("/usr/bin/promtool");
        if (Files.isExecutable(debian)) {
            return debian;
        }
        for (String dir : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
            Path candidate = Path.of(dir, "promtool");
            if (!dir.isEmpty() && Files.isExecutable(candidate)) {
                return candidate;
            }
        }
        throw new AssertionError("promtool is needed to check ops/prometheus/switchboard-alerts.yml and is not installed"
                + " (neither /usr/bin/promtool nor on the PATH): run scripts/ensure-promtool.sh, which installs Debian's"
                + " prometheus package, as .ci/run does");
    }

    record Outcome(int exit, String output) {
    }

    /** Runs promtool with {@code args} and returns its exit status and merged output; fails if it runs past a minute. */
    static Outcome promtool(String... args) {
        List<String> command = new ArrayList<>();
        command.add(promtool().toString());
        command.addAll(List.of(args));
        try {
            Path output = Files.createTempFile("promtool", ".out");
            try {
                Process process = new ProcessBuilder(command).directory(ROOT.toFile()).redirectErrorStream(true)
                        .redirectOutput(output.toFile()).start();
                if (!process.waitFor(Duration.ofMinutes(1).toSeconds(), TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                    throw new AssertionError(String.join(" ", command) + " ran for more than a minute");
                }
                return new Outcome(process.exitValue(), Files.readString(output, StandardCharsets.UTF_8));
            } finally {
                Files.deleteIfExists(output);
            }
        } catch (IOException e) {
            throw new AssertionError("cannot run " + String.join(" ", command), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while running " + String.join(" ", command), e);
        }
    }
}
