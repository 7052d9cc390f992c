package dev.switchboard.bench.chaos;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import java.io.StringReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * The chaos run's load: messages over a number of threads, each thread's messages sent in order by
 * one sender, paced over the run. Seven in ten go to {@code POST /v1/messages}, the rest are RPC
 * {@code turn/start} calls; all carry an idempotency key, so a message whose answer was lost (its
 * instance died, froze or lost its database) is sent again, to another instance, until one
 * acknowledges it. Only acknowledged messages are promises; each is recorded.
 */
final class ChaosLoad {

    /** An acknowledged message: its run (messages) or turn (RPC). */
    record Ack(int index, String thread, String runId, String turnId) {
    }

    private final Supplier<URI> instance;
    private final int messages;
    private final int threads;
    private final long durationMs;
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2)).build();
    private final ConcurrentLinkedQueue<Ack> acks = new ConcurrentLinkedQueue<>();
    private final AtomicInteger retries = new AtomicInteger();
    private final AtomicInteger given = new AtomicInteger();
    private final String prefix;

    ChaosLoad(Supplier<URI> instance, int messages, int threads, long durationMs, String prefix) {
        this.instance = instance;
        this.messages = messages;
        this.threads = threads;
        this.durationMs = durationMs;
        this.prefix = prefix;
    }

    /** Sends every message; returns when each is acknowledged or given up on (after two minutes of refusals). */
    void run() throws Exception {
        int senders = Math.min(8, threads);
        ExecutorService pool = Executors.newFixedThreadPool(senders);
        long start = System.nanoTime();
        List<Future<?>> done = new ArrayList<>();
        for (int s = 0; s < senders; s++) {
            int sender = s;
            done.add(pool.submit(() -> {
                Random random = new Random(sender);
                for (int i = 0; i < messages; i++) {
                    int thread = i % threads;
                    if (thread % senders != sender) {
                        continue;
                    }
                    long due = start + TimeUnit.MILLISECONDS.toNanos(durationMs * i / messages);
                    long wait = due - System.nanoTime();
                    if (wait > 0) {
                        TimeUnit.NANOSECONDS.sleep(wait);
                    }
                    send(i, prefix + thread, "sleep " + (20 + random.nextInt(380)) + "; m" + i, random.nextInt(10) < 7);
                }
                return null;
            }));
        }
        for (Future<?> f : done) {
            f.get();
        }
        pool.shutdown();
    }

    private void send(int index, String thread, String text, boolean asMessage) throws InterruptedException {
        String key = prefix + "m" + index;
        long giveUp = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
        while (System.nanoTime() < giveUp) {
            try {
                Ack ack = asMessage ? message(index, thread, text, key) : turn(index, thread, text, key);
                if (ack != null) {
                    acks.add(ack);
                    return;
                }
            } catch (java.io.IOException e) {
                // the instance is down, frozen or cut off: another one is tried
            }
            retries.incrementAndGet();
            Thread.sleep(200);
        }
        given.incrementAndGet();
    }

    private Ack message(int index, String thread, String text, String key) throws java.io.IOException, InterruptedException {
        String body = Json.createObjectBuilder().add("thread_key", thread).add("text", text).add("idempotency_key", key)
                .build().toString();
        HttpResponse<String> r = post("/v1/messages", body);
        if (r.statusCode() != 202) {
            return null;
        }
        return new Ack(index, thread, parse(r.body()).getString("run_id"), null);
    }

    private Ack turn(int index, String thread, String text, String key) throws java.io.IOException, InterruptedException {
        String body = Json.createObjectBuilder().add("jsonrpc", "2.0").add("id", index).add("method", "turn/start")
                .add("params", Json.createObjectBuilder().add("thread_id", thread).add("idempotency_key", key)
                        .add("input", Json.createArrayBuilder().add(Json.createObjectBuilder().add("type", "message")
                                .add("content", Json.createArrayBuilder().add(Json.createObjectBuilder()
                                        .add("type", "input_text").add("text", text))))))
                .build().toString();
        HttpResponse<String> r = post("/rpc", body);
        if (r.statusCode() != 200) {
            return null;
        }
        JsonObject answer = parse(r.body());
        if (!answer.containsKey("result")) {
            return null; // e.g. the thread's queue is full: sent again
        }
        return new Ack(index, thread, null, answer.getJsonObject("result").getString("turn_id"));
    }

    private HttpResponse<String> post(String path, String body) throws java.io.IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(instance.get().resolve(path))
                .timeout(Duration.ofSeconds(5))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build();
        return http.send(request, HttpResponse.BodyHandlers.ofString());
    }

    private static JsonObject parse(String body) {
        try (JsonReader reader = Json.createReader(new StringReader(body))) {
            return reader.readObject();
        }
    }

    List<Ack> acks() {
        return List.copyOf(acks);
    }

    int retries() {
        return retries.get();
    }

    int givenUp() {
        return given.get();
    }
}
