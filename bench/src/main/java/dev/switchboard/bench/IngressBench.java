package dev.switchboard.bench;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.io.IOException;
import java.net.URI;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Webhook ingress under load: D GitHub deliveries (a share of them resends of earlier ones)
 * across R repositories, sent by C concurrent senders; each repository's deliveries are sent in
 * order by one sender, so each lane has a defined arrival order. Then checks, through the records
 * API and the runs API, that every unique delivery was accepted once, ran once and succeeded, every
 * resend was recorded as a duplicate, and each lane ran its deliveries in arrival order; and reports
 * accepted deliveries per second and ingest-to-run-start latency (event received_at to run
 * started_at, both server clocks).
 */
public final class IngressBench {

    static final String USAGE = """
            usage: IngressBench [--url http://127.0.0.1:9080] [--deliveries 2000] [--duplicates 0.2]
                                [--repos 50] [--concurrency 16] [--grace-s 120] [--label text]
              --url          base URL of a running Switchboard server (no webhook secret set)
              --deliveries   deliveries to send, resends included
              --duplicates   share of the deliveries that resend an earlier delivery (0 to 0.9)
              --repos        repositories (one lane each)
              --concurrency  senders; each owns whole repositories and sends them in order
              --grace-s      how long to wait for the runs to finish after the last delivery
              --label        free text printed with the results""";

    record Options(URI url, int deliveries, double duplicates, int repos, int concurrency, int graceS, String label) {

        static Options parse(String[] args) {
            Map<String, String> o = Cli.options(args);
            double duplicates = Double.parseDouble(o.getOrDefault("--duplicates", "0.2"));
            if (!(duplicates >= 0 && duplicates <= 0.9)) {
                throw new IllegalArgumentException("--duplicates must be from 0 to 0.9");
            }
            Options parsed = new Options(URI.create(Cli.url(o.getOrDefault("--url", "http://127.0.0.1:9080"))),
                    Cli.positive("--deliveries", o.getOrDefault("--deliveries", "2000")), duplicates,
                    Cli.positive("--repos", o.getOrDefault("--repos", "50")),
                    Cli.positive("--concurrency", o.getOrDefault("--concurrency", "16")),
                    Cli.positive("--grace-s", o.getOrDefault("--grace-s", "120")), o.getOrDefault("--label", ""));
            for (String name : o.keySet()) {
                if (!List.of("--url", "--deliveries", "--duplicates", "--repos", "--concurrency", "--grace-s",
                        "--label").contains(name)) {
                    throw new IllegalArgumentException("unknown option " + name);
                }
            }
            return parsed;
        }
    }

    /** One delivery to send; {@code original} is the index of the delivery it resends, or -1. */
    private record Delivery(int index, int repo, String deliveryId, String body, int original) {
    }

    /** What the server answered for one delivery. */
    private record Answer(Delivery delivery, int status, String eventStatus, String runId, String eventId) {
    }

    private final Options options;
    private final SwitchboardClient client;
    private final String tag = UUID.randomUUID().toString().substring(0, 8);

    IngressBench(Options options) {
        this.options = options;
        this.client = new SwitchboardClient(options.url());
    }

    public static void main(String[] args) {
        Cli.main(args, Options::parse, USAGE, o -> new IngressBench(o)::run);
    }

    private String repo(int r) {
        return "bench-" + tag + "/repo-" + r;
    }

    Cli.Report run() throws Exception {
        client.checkReady();
        List<List<Delivery>> perSender = plan();
        ExecutorService senders = Executors.newFixedThreadPool(options.concurrency());
        long start = System.nanoTime();
        List<Future<List<Answer>>> sent = new ArrayList<>();
        for (List<Delivery> queue : perSender) {
            sent.add(senders.submit(() -> send(queue)));
        }
        List<Answer> answers = new ArrayList<>();
        for (Future<List<Answer>> f : sent) {
            answers.addAll(f.get());
        }
        double sendSeconds = (System.nanoTime() - start) / 1e9;
        senders.shutdown();
        return check(answers, sendSeconds);
    }

    /** Deliveries per sender: whole repositories, round-robin, resends placed after their original. */
    private List<List<Delivery>> plan() {
        Random random = new Random(42);
        int uniques = (int) Math.round(options.deliveries() * (1 - options.duplicates()));
        List<Delivery> all = new ArrayList<>();
        for (int i = 0; i < uniques; i++) {
            int repo = i % options.repos();
            String delivery = "bench-" + tag + "-" + i;
            String body = "{\"action\":\"created\",\"issue\":{\"number\":" + (i / options.repos() + 1)
                    + "},\"comment\":{\"id\":" + i + ",\"body\":\"load\"},\"repository\":{\"full_name\":\""
                    + repo(repo) + "\"},\"x_github_delivery\":\"" + delivery + "\"}";
            all.add(new Delivery(i, repo, delivery, body, -1));
        }
        for (int d = uniques; d < options.deliveries(); d++) {
            int original = random.nextInt(uniques);
            Delivery o = all.get(original);
            int at = original + 1 + random.nextInt(all.size() - original);
            all.add(Math.min(at, all.size()), new Delivery(d, o.repo(), o.deliveryId(), o.body(), original));
        }
        List<List<Delivery>> perSender = new ArrayList<>();
        for (int s = 0; s < options.concurrency(); s++) {
            perSender.add(new ArrayList<>());
        }
        for (Delivery d : all) {
            perSender.get(d.repo() % options.concurrency()).add(d);
        }
        return perSender;
    }

    private List<Answer> send(List<Delivery> queue) throws IOException, InterruptedException {
        List<Answer> answers = new ArrayList<>();
        for (Delivery d : queue) {
            SwitchboardClient.Delivered r = client.deliverGithub("issue_comment", d.deliveryId(), d.body());
            answers.add(r.answer() == null ? new Answer(d, r.status(), null, null, null)
                    : new Answer(d, r.status(), r.answer().getString("status", ""),
                            r.answer().getString("run_id", null), r.answer().getString("event_id", "")));
        }
        return answers;
    }

    private Cli.Report check(List<Answer> answers, double sendSeconds) throws Exception {
        int refused = 0;
        int wrongStatus = 0;
        Map<String, Answer> acceptedByDelivery = new HashMap<>();
        int doubleAccepted = 0;
        for (Answer a : answers) {
            if (a.status() != 202) {
                refused++;
                continue;
            }
            boolean resend = a.delivery().original() >= 0;
            String expected = resend ? "duplicate" : "accepted";
            if (!expected.equals(a.eventStatus())) {
                wrongStatus++;
            }
            if ("accepted".equals(a.eventStatus()) && acceptedByDelivery.put(a.delivery().deliveryId(), a) != null) {
                doubleAccepted++;
            }
        }
        Map<String, Run> runs = new HashMap<>();
        Map<String, List<Run>> lanes = new HashMap<>();
        long deadline = System.currentTimeMillis() + options.graceS() * 1000L;
        for (int r = 0; r < options.repos(); r++) {
            String lane = "event:" + repo(r);
            List<Run> laneRuns = awaitLane(lane, deadline);
            lanes.put(lane, laneRuns);
            laneRuns.forEach(run -> runs.put(run.runId(), run));
        }
        Map<String, Long> receivedAt = receivedTimes();
        int unfinished = 0;
        int failed = 0;
        int missingRuns = 0;
        List<Long> latencies = new ArrayList<>();
        for (Answer a : acceptedByDelivery.values()) {
            Run run = runs.get(a.runId());
            if (run == null) {
                missingRuns++;
            } else if (!run.terminal()) {
                unfinished++;
            } else {
                if (run.failed()) {
                    failed++;
                }
                Long received = receivedAt.get(a.eventId());
                if (received != null && run.startedAt() != null) {
                    latencies.add(run.startedAt() - received);
                }
            }
        }
        int extraRuns = runs.size() - acceptedByDelivery.size();
        int orderViolations = 0;
        int overlaps = 0;
        Map<String, Integer> indexOfRun = new HashMap<>();
        acceptedByDelivery.values().forEach(a -> indexOfRun.put(a.runId(), a.delivery().index()));
        for (List<Run> laneRuns : lanes.values()) {
            for (int i = 1; i < laneRuns.size(); i++) {
                Run before = laneRuns.get(i - 1);
                Run after = laneRuns.get(i);
                Integer b = indexOfRun.get(before.runId());
                Integer c = indexOfRun.get(after.runId());
                if (b == null || c == null || b > c) {
                    orderViolations++;
                }
                if (before.finishedAt() != null && after.startedAt() != null && after.startedAt() < before.finishedAt()) {
                    overlaps++;
                }
            }
        }
        long[] sorted = latencies.stream().mapToLong(Long::longValue).sorted().toArray();
        int uniques = (int) answers.stream().filter(a -> a.delivery().original() < 0).count();
        return new Report(options, answers.size(), uniques, sendSeconds, refused, wrongStatus, doubleAccepted,
                missingRuns, extraRuns, unfinished, failed, orderViolations, overlaps,
                Percentiles.nearestRank(sorted, 50), Percentiles.nearestRank(sorted, 90),
                Percentiles.nearestRank(sorted, 99), sorted.length == 0 ? 0 : sorted[sorted.length - 1], sorted.length);
    }

    /** Every run of a lane in lane order, waiting until all are terminal or the deadline passes. */
    private List<Run> awaitLane(String lane, long deadline) throws Exception {
        String key = lane; // letters, digits, '-', ':' and '/': the runs path takes the key as it is
        while (true) {
            List<Run> all = new ArrayList<>();
            long after = 0;
            while (true) {
                SwitchboardClient.Page page = client.page(key, after, 200);
                if (page == null) {
                    break;
                }
                all.addAll(page.runs());
                if (page.nextAfterSeq() == null) {
                    break;
                }
                after = page.nextAfterSeq();
            }
            if (all.stream().allMatch(Run::terminal) || System.currentTimeMillis() > deadline) {
                return all;
            }
            Thread.sleep(200);
        }
    }

    /** received_at of every event of this benchmark (source github), from {@code GET /v1/events}. */
    private Map<String, Long> receivedTimes() throws IOException, InterruptedException {
        Map<String, Long> out = new HashMap<>();
        String cursor = null;
        do {
            JsonObject page = client.events("source=github&limit=500" + (cursor == null ? "" : "&cursor=" + cursor));
            page.getJsonArray("data").getValuesAs(JsonObject.class).forEach(e ->
                    out.put(e.getString("id"), Instant.parse(e.getString("received_at")).toEpochMilli()));
            cursor = page.isNull("next_cursor") ? null : page.getString("next_cursor");
        } while (cursor != null);
        return out;
    }

    record Report(Options options, int sent, int uniques, double sendSeconds, int refused, int wrongStatus,
            int doubleAccepted, int missingRuns, int extraRuns, int unfinished, int failed, int orderViolations,
            int overlaps, long p50Ms, long p90Ms, long p99Ms, long maxMs, int measured) implements Cli.Report {

        double deliveriesPerSecond() {
            return sendSeconds > 0 ? sent / sendSeconds : 0;
        }

        @Override
        public boolean ok() {
            return refused == 0 && wrongStatus == 0 && doubleAccepted == 0 && missingRuns == 0 && extraRuns == 0
                    && unfinished == 0 && failed == 0 && orderViolations == 0 && overlaps == 0;
        }

        @Override
        public String human() {
            return String.join("\n",
                    "ingress " + options.label(),
                    String.format("deliveries  %d sent (%d unique, %d resends) to %d repositories by %d senders",
                            sent, uniques, sent - uniques, options.repos(), options.concurrency()),
                    String.format("throughput  %.0f deliveries/s accepted (%.2f s)", deliveriesPerSecond(), sendSeconds),
                    String.format("latency     ingest to run start: p50 %d ms, p90 %d ms, p99 %d ms, max %d ms (%d runs)",
                            p50Ms, p90Ms, p99Ms, maxMs, measured),
                    String.format("checks      refused %d, wrong status %d, accepted twice %d, missing runs %d, "
                            + "extra runs %d, unfinished %d, failed %d, order violations %d, overlaps %d",
                            refused, wrongStatus, doubleAccepted, missingRuns, extraRuns, unfinished, failed,
                            orderViolations, overlaps),
                    ok() ? "OK" : "CHECKS FAILED");
        }

        @Override
        public String json() {
            return Json.createObjectBuilder()
                    .add("label", options.label())
                    .add("deliveries", sent)
                    .add("unique", uniques)
                    .add("repos", options.repos())
                    .add("concurrency", options.concurrency())
                    .add("deliveries_per_s", Math.round(deliveriesPerSecond() * 10) / 10.0)
                    .add("ingest_to_start_p50_ms", p50Ms)
                    .add("ingest_to_start_p90_ms", p90Ms)
                    .add("ingest_to_start_p99_ms", p99Ms)
                    .add("ingest_to_start_max_ms", maxMs)
                    .add("ok", ok())
                    .build().toString();
        }
    }
}
