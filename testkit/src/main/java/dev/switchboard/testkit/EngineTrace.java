package dev.switchboard.testkit;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * What the scripted engine's journals say it did (switchboard.engine.scripted.journal, one file
 * per instance): each engine call with its start, its last confirmed progress and its end. The
 * question tests ask of it is whether two engine calls of one thread were ever at work at the same
 * time — observed in the engine, not inferred from stored run timestamps.
 *
 * <p>A call is at work from its start until it ended; a call that was cancelled (or never ended,
 * its process killed or frozen) only until its last confirmed progress: the engine checks that it
 * may continue before each step, so a frozen owner does no work after its lease deadline even if
 * it notices the cancellation only when it wakes up.
 */
public final class EngineTrace {

    /** One engine call. Times are epoch microseconds by the machine's real clock. */
    public record Call(String instance, String run, int attempt, String thread, long start, Long end, String outcome,
            long lastProgress) {

        /** Until when the call was at work (see the class comment). */
        public long workedUntil() {
            if (end != null && !"cancelled".equals(outcome)) {
                return end;
            }
            return lastProgress;
        }

        public boolean completed() {
            return "completed".equals(outcome);
        }

        @Override
        public String toString() {
            return run + "#" + attempt + "@" + instance + " [" + start + ".." + workedUntil() + "] "
                    + (outcome == null ? "open" : outcome);
        }
    }

    private final List<Call> calls;

    private EngineTrace(List<Call> calls) {
        this.calls = calls;
    }

    /** Reads every {@code *.jsonl} journal in {@code dir} (none yet: an empty trace). */
    public static EngineTrace readDir(Path dir) {
        if (!Files.isDirectory(dir)) {
            return new EngineTrace(List.of());
        }
        try (Stream<Path> files = Files.list(dir)) {
            return read(files.filter(f -> f.toString().endsWith(".jsonl")).sorted().toList());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static EngineTrace read(List<Path> files) {
        Map<String, Builder> byCall = new LinkedHashMap<>();
        for (Path file : files) {
            List<String> lines;
            try {
                lines = Files.readAllLines(file, StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            for (String line : lines) {
                if (line.isBlank()) {
                    continue;
                }
                JsonObject event;
                try (JsonReader reader = Json.createReader(new StringReader(line))) {
                    event = reader.readObject();
                } catch (RuntimeException torn) {
                    continue; // the last line of a killed process may be torn
                }
                String key = event.getString("instance") + "/" + event.getString("run") + "/" + event.getInt("attempt");
                byCall.computeIfAbsent(key, k -> new Builder(event)).add(event);
            }
        }
        return new EngineTrace(byCall.values().stream().map(Builder::build)
                .sorted(Comparator.comparingLong(Call::start)).toList());
    }

    public List<Call> calls() {
        return calls;
    }

    /** Only the calls {@code keep} accepts (e.g. one test's threads, when journals are shared). */
    public EngineTrace only(Predicate<Call> keep) {
        return new EngineTrace(calls.stream().filter(keep).toList());
    }

    public List<Call> callsOf(String runId) {
        return calls.stream().filter(c -> c.run().equals(runId)).toList();
    }

    /** Pairs of calls of one thread that were at work at the same time; empty when lanes held. */
    public List<String> overlaps() {
        List<String> found = new ArrayList<>();
        Map<String, List<Call>> byThread = calls.stream().collect(Collectors.groupingBy(Call::thread));
        for (List<Call> thread : byThread.values()) {
            List<Call> ordered = thread.stream().sorted(Comparator.comparingLong(Call::start)).toList();
            for (int i = 0; i < ordered.size(); i++) {
                for (int j = i + 1; j < ordered.size(); j++) {
                    Call earlier = ordered.get(i);
                    Call later = ordered.get(j);
                    if (later.start() < earlier.workedUntil()) {
                        found.add(earlier + " still at work when " + later + " started");
                    }
                }
            }
        }
        return found;
    }

    /** Runs whose engine completed more than once (each a wasted or doubled execution). */
    public List<String> runsCompletedTwice() {
        return calls.stream().filter(Call::completed).collect(Collectors.groupingBy(Call::run)).entrySet().stream()
                .filter(e -> e.getValue().size() > 1).map(e -> e.getKey() + ": " + e.getValue()).toList();
    }

    private static final class Builder {
        final String instance;
        final String run;
        final int attempt;
        final String thread;
        long start = Long.MAX_VALUE;
        Long end;
        String outcome;
        long lastProgress;

        Builder(JsonObject first) {
            instance = first.getString("instance");
            run = first.getString("run");
            attempt = first.getInt("attempt");
            thread = first.getString("thread");
        }

        void add(JsonObject e) {
            long at = e.getJsonNumber("at").longValue();
            switch (e.getString("event")) {
                case "start" -> {
                    start = Math.min(start, at);
                    lastProgress = Math.max(lastProgress, at);
                }
                case "progress" -> lastProgress = Math.max(lastProgress, at);
                case "end" -> {
                    end = at;
                    outcome = e.getString("outcome", null);
                    if (e.containsKey("progress_at")) {
                        lastProgress = Math.max(lastProgress, e.getJsonNumber("progress_at").longValue());
                    }
                    if (!"cancelled".equals(outcome)) {
                        lastProgress = Math.max(lastProgress, at);
                    }
                }
                default -> {
                }
            }
        }

        Call build() {
            return new Call(instance, run, attempt, thread, start, end, outcome, lastProgress);
        }
    }
}
