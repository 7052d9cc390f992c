package dev.switchboard.it;

import jakarta.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;

/**
 * Load on many lanes at once: each thread key gets its messages in order from one client worker,
 * eight workers post in parallel; then every lane is checked for serial, FIFO, first-attempt runs.
 */
final class LaneLoad {

    private LaneLoad() {
    }

    /**
     * @param apiForMessage which server receives message i of a thread (to spread load over instances)
     */
    static void postAndVerify(String prefix, int threads, int perThread, IntFunction<Api> apiForMessage)
            throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(8);
        List<Future<List<String>>> posted = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            String key = prefix + t;
            posted.add(pool.submit(() -> {
                List<String> texts = new ArrayList<>();
                for (int i = 0; i < perThread; i++) {
                    String text = key + "#" + i;
                    apiForMessage.apply(i).message(key, "sleep 5; " + text);
                    texts.add(text);
                }
                return texts;
            }));
        }
        List<List<String>> texts = new ArrayList<>();
        for (Future<List<String>> f : posted) {
            texts.add(f.get(120, TimeUnit.SECONDS));
        }
        pool.shutdown();
        Api reader = apiForMessage.apply(0);
        for (int t = 0; t < threads; t++) {
            String key = prefix + t;
            List<JsonObject> runs = reader.threadRuns(key);
            reader.awaitRun(runs.get(runs.size() - 1).getString("run_id"), 60);
            runs = reader.threadRuns(key);
            LaneAssertions.assertSerialFifo(key, runs, texts.get(t));
            LaneAssertions.assertAllFirstAttempt(runs);
        }
    }
}
