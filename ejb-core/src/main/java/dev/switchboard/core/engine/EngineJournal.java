package dev.switchboard.core.engine;

import dev.switchboard.core.json.Jsons;
import jakarta.json.JsonObjectBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * A test engine's own record of what it did, one JSON line per event, so tests observe overlap of
 * engine executions in the engine rather than infer it from stored timestamps: {@code start},
 * {@code progress} (at most every {@link #PROGRESS_EVERY_US} µs while working) and {@code end}
 * (with {@code outcome} {@code completed}, {@code failed} or {@code cancelled}). {@code at} is the
 * machine's real clock in epoch microseconds — never the instance's shifted clock — read before
 * the engine checked that it may continue, so a line never claims work after the lease was lost.
 */
public final class EngineJournal {

    static final long PROGRESS_EVERY_US = 250_000;

    private final Path file;
    private final String instance;

    private EngineJournal(Path file, String instance) {
        this.file = file;
        this.instance = instance;
    }

    /** A journal appending to {@code file} (created with its directories). */
    public static EngineJournal to(Path file, String instance) {
        try {
            if (file.getParent() != null) {
                Files.createDirectories(file.getParent());
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the engine journal's directory for " + file, e);
        }
        return new EngineJournal(file, instance);
    }

    /** The real clock in epoch microseconds. */
    static long nowMicros() {
        return ChronoUnit.MICROS.between(Instant.EPOCH, Instant.now());
    }

    void write(EngineRequest request, String event, long at, String outcome, Long progressAt) {
        JsonObjectBuilder line = Jsons.createObjectBuilder()
                .add("instance", instance)
                .add("run", request.runId())
                .add("attempt", request.attempt())
                .add("thread", request.userKey() + "/" + request.threadKey())
                .add("event", event)
                .add("at", at);
        if (outcome != null) {
            line.add("outcome", outcome);
        }
        if (progressAt != null) {
            line.add("progress_at", progressAt);
        }
        byte[] bytes = (line.build().toString() + "\n").getBytes(StandardCharsets.UTF_8);
        synchronized (this) {
            try {
                Files.write(file, bytes, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot append to the engine journal " + file, e);
            }
        }
    }
}
