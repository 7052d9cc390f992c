package dev.switchboard.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import jakarta.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.ResourceAccessMode;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.junit.jupiter.params.BeforeParameterizedClassInvocation;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/** Idempotency under concurrency and per-thread lanes under load, on one instance. */
@ParameterizedClass(name = "on {0}") // on PostgreSQL and on the embedded H2 (SharedInstance)
@EnumSource(SharedInstance.Database.class)
@ResourceLock(value = SharedInstance.LOCK, mode = ResourceAccessMode.READ)
class LaneConcurrencyIT {

    @Parameter
    SharedInstance.Database database;

    private static Api api;

    @BeforeParameterizedClassInvocation
    static void start(SharedInstance.Database database) {
        api = SharedInstance.api(database);
    }

    @Test
    void fiftyConcurrentPostsOfOneKeyMakeExactlyOneRun() throws Exception {
        String key = "k-" + UUID.randomUUID();
        String thread = "idem-race-" + UUID.randomUUID();
        String body = "{\"text\":\"race\",\"thread_key\":\"" + thread + "\",\"idempotency_key\":\"" + key + "\"}";
        ExecutorService pool = Executors.newFixedThreadPool(50);
        CountDownLatch go = new CountDownLatch(1);
        Set<String> runIds = ConcurrentHashMap.newKeySet();
        List<Future<Integer>> statuses = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            statuses.add(pool.submit(() -> {
                go.await();
                Api.Reply r = api.postJson("/v1/messages", body);
                runIds.add(r.json().getString("run_id"));
                return r.status();
            }));
        }
        go.countDown();
        for (Future<Integer> status : statuses) {
            assertEquals(202, status.get(60, TimeUnit.SECONDS));
        }
        pool.shutdown();
        assertEquals(1, runIds.size(), "run ids: " + runIds);
        List<JsonObject> runs = api.threadRuns(thread);
        assertEquals(1, runs.size());
        assertEquals("succeeded", api.awaitRun(runIds.iterator().next(), 30).getString("status"));
    }

    @Test
    void twoHundredRunsOverTwentyThreadsNeverOverlapAndKeepTheirOrder() throws Exception {
        LaneLoad.postAndVerify("lanes-" + UUID.randomUUID() + "-", 20, 10, i -> api);
    }
}
