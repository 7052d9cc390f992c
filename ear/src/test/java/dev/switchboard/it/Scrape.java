package dev.switchboard.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.HashMap;
import java.util.Map;
import java.util.function.Predicate;

/** One read of an instance's {@code /metrics} (Prometheus' text format): samples by metric name, each with its label text. */
record Scrape(Map<String, Map<String, Double>> samples, String text) {

    static Scrape of(Api api) {
        Api.Reply reply = api.get("/metrics");
        assertEquals(200, reply.status(), reply.body());
        Map<String, Map<String, Double>> samples = new HashMap<>();
        for (String line : reply.body().split("\n")) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            int brace = line.indexOf('{');
            int space = line.lastIndexOf(' ');
            String name = brace >= 0 ? line.substring(0, brace) : line.substring(0, space);
            String labels = brace >= 0 ? line.substring(brace, line.lastIndexOf('}') + 1) : "";
            samples.computeIfAbsent(name, n -> new HashMap<>()).put(labels, Double.parseDouble(line.substring(space + 1)));
        }
        return new Scrape(samples, reply.body());
    }

    /** The sum over the samples of {@code name} whose labels match; 0 when there is none. */
    double value(String name, Predicate<String> labels) {
        return samples.getOrDefault(name, Map.of()).entrySet().stream().filter(e -> labels.test(e.getKey()))
                .mapToDouble(Map.Entry::getValue).sum();
    }

    /** Whether a series of {@code name} with such labels is served (at any value, 0 included). */
    boolean has(String name, Predicate<String> labels) {
        return samples.getOrDefault(name, Map.of()).keySet().stream().anyMatch(labels);
    }

    double delta(Scrape before, String name, Predicate<String> labels) {
        return value(name, labels) - before.value(name, labels);
    }

    @Override
    public String toString() {
        return text;
    }
}
