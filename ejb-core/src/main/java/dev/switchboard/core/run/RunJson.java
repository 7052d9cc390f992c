package dev.switchboard.core.run;

import dev.switchboard.core.json.Jsons;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonReader;
import jakarta.json.JsonValue;
import java.io.StringReader;
import java.time.Instant;

/** The run envelope (REST and RPC): jagc's four fields first, then Switchboard's lifecycle fields. */
public final class RunJson {

    private RunJson() {
    }

    public static JsonObject of(RunView run) {
        JsonObjectBuilder b = Jsons.createObjectBuilder()
                .add("run_id", run.runId())
                .add("status", run.status());
        if (run.outputJson() == null) {
            b.addNull("output");
        } else {
            try (JsonReader reader = Jsons.createReader(new StringReader(run.outputJson()))) {
                b.add("output", reader.readValue());
            }
        }
        if (run.errorMessage() == null) {
            b.addNull("error");
        } else {
            JsonObjectBuilder error = Jsons.createObjectBuilder().add("message", run.errorMessage());
            if (run.errorCode() != null) {
                error.add("code", run.errorCode());
            }
            b.add("error", error);
        }
        return b.add("state", run.state())
                .add("thread_key", run.threadKey())
                .add("thread_seq", run.threadSeq())
                .add("source", run.source())
                .add("delivery_mode", run.deliveryMode())
                .add("attempt", run.attempt())
                .add("crashes", run.crashes())
                .add("created_at", time(run.createdAt()))
                .add("started_at", run.startedAt() == null ? JsonValue.NULL : time(run.startedAt()))
                .add("finished_at", run.finishedAt() == null ? JsonValue.NULL : time(run.finishedAt()))
                .add("turn_id", run.turnId() == null ? JsonValue.NULL : Jsons.createValue(run.turnId()))
                .build();
    }

    private static JsonValue time(long epochMs) {
        return Jsons.createValue(Instant.ofEpochMilli(epochMs).toString());
    }
}
