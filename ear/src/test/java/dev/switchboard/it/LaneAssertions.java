package dev.switchboard.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.JsonObject;
import java.time.Instant;
import java.util.List;

/** Checks of what a lane promises, on a thread's runs as the API lists them. */
final class LaneAssertions {

    private LaneAssertions() {
    }

    static long millis(JsonObject run, String field) {
        return Instant.parse(run.getString(field)).toEpochMilli();
    }

    /**
     * Every run succeeded on its first attempt, in thread_seq order, with texts in posting order,
     * and no run started before the previous one finished.
     */
    static void assertSerialFifo(String threadKey, List<JsonObject> runs, List<String> postedTexts) {
        assertEquals(postedTexts.size(), runs.size(), "runs of " + threadKey);
        JsonObject previous = null;
        for (int i = 0; i < runs.size(); i++) {
            JsonObject run = runs.get(i);
            assertEquals("succeeded", run.getString("status"), () -> "run " + run);
            assertEquals(i + 1L, run.getJsonNumber("thread_seq").longValue(), "thread_seq of " + run);
            assertEquals(postedTexts.get(i), run.getJsonObject("output").getString("text"), "FIFO order in " + threadKey);
            if (previous != null) {
                long prevEnd = millis(previous, "finished_at");
                long start = millis(run, "started_at");
                JsonObject prev = previous;
                assertTrue(start >= prevEnd, () -> "runs overlap in " + threadKey + ": " + prev + " / " + run);
            }
            previous = run;
        }
    }

    static void assertAllFirstAttempt(List<JsonObject> runs) {
        for (JsonObject run : runs) {
            assertEquals(1, run.getInt("attempt"), () -> "executed more than once: " + run);
        }
    }
}
