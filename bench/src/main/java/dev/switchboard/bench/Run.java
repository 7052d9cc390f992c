package dev.switchboard.bench;

import jakarta.json.JsonObject;
import java.time.Instant;

/** The fields of a run envelope the benchmark needs; times are epoch milliseconds. */
record Run(String runId, String threadKey, long threadSeq, String status, int attempt,
        Long startedAt, Long finishedAt) {

    static Run of(JsonObject json) {
        return new Run(json.getString("run_id"), json.getString("thread_key"),
                json.getJsonNumber("thread_seq").longValue(), json.getString("status"),
                json.getInt("attempt"), time(json, "started_at"), time(json, "finished_at"));
    }

    /** Succeeded or failed, with a finish time: the run will not change any more. */
    boolean terminal() {
        return !"running".equals(status) && finishedAt != null;
    }

    boolean failed() {
        return "failed".equals(status);
    }

    private static Long time(JsonObject json, String name) {
        if (!json.containsKey(name) || json.isNull(name)) {
            return null;
        }
        return Instant.parse(json.getString(name)).toEpochMilli();
    }
}
