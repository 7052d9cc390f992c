package dev.switchboard.core.lifecycle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** How a run's progress is batched into writes: deltas coalesce, steps go at once, close ends it. */
class RunProgressTest {

    private final ScheduledExecutorService flusher = Executors.newScheduledThreadPool(2);
    private final List<List<String>> writes = new CopyOnWriteArrayList<>();

    @AfterEach
    void stop() {
        flusher.shutdownNow();
    }

    private static JsonObject step(String name) {
        return Json.createObjectBuilder().add("type", "function_call").add("name", name).build();
    }

    private static List<String> render(List<RunProgress.Note> notes) {
        return notes.stream().map(n -> n.delta() != null ? "text:" + n.delta() : "item:" + n.item().getString("name")).toList();
    }

    private void awaitWrites(int count) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (writes.size() < count) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("expected " + count + " writes, saw " + writes);
            }
            Thread.sleep(2);
        }
    }

    @Test
    void deltasWithinAnIntervalBecomeOneWrite() throws Exception {
        RunProgress progress = new RunProgress(50, flusher, notes -> writes.add(render(notes)));
        progress.textDelta("Hel");
        progress.textDelta("lo");
        progress.textDelta(", world");
        awaitWrites(1);
        progress.close();
        assertEquals(List.of(List.of("text:Hello, world")), writes);
    }

    @Test
    void aStepGoesOutAtOnceAfterTheTextBeforeIt() throws Exception {
        RunProgress progress = new RunProgress(60_000, flusher, notes -> writes.add(render(notes)));
        progress.textDelta("let me check");
        progress.item(step("echo_tool"));
        awaitWrites(1);
        assertEquals(List.of(List.of("text:let me check", "item:echo_tool")), writes);
        progress.close();
    }

    @Test
    void closeDropsWaitingTextWritesWaitingStepsAndEndsTheStream() throws Exception {
        ScheduledExecutorService flusher = Executors.newSingleThreadScheduledExecutor();
        CountDownLatch firstWriteHeld = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        RunProgress progress = new RunProgress(60_000, flusher, notes -> {
            if (writes.isEmpty()) {
                firstWriteHeld.countDown();
                try {
                    release.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            writes.add(render(notes));
        });
        progress.item(step("first"));
        assertTrue(firstWriteHeld.await(10, TimeUnit.SECONDS));
        progress.item(step("second"));        // waits behind the held write
        progress.textDelta("never written");  // the reply will carry it
        Thread closing = new Thread(progress::close);
        closing.start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (closing.getState() != Thread.State.WAITING && System.nanoTime() < deadline) {
            Thread.onSpinWait(); // close queues on the write lock before the held write ends
        }
        assertEquals(Thread.State.WAITING, closing.getState());
        release.countDown();
        closing.join(10_000);
        assertEquals(List.of(List.of("item:first"), List.of("item:second")), writes,
                "close waited for the write in progress, then wrote the waiting step alone");
        progress.textDelta("after the end");
        progress.item(step("after the end"));
        flusher.shutdown();
        assertTrue(flusher.awaitTermination(10, TimeUnit.SECONDS));
        assertEquals(2, writes.size(), "nothing after close");
    }

    @Test
    void aFailedWriteIsDroppedAndTheStreamGoesOn() throws Exception {
        RunProgress progress = new RunProgress(60_000, flusher, notes -> {
            if (writes.isEmpty()) {
                writes.add(List.of("failed"));
                throw new IllegalStateException("database down");
            }
            writes.add(render(notes));
        });
        progress.item(step("lost"));
        awaitWrites(1);
        progress.item(step("kept"));
        awaitWrites(2);
        assertEquals(List.of(List.of("failed"), List.of("item:kept")), writes);
        progress.close();
    }
}
