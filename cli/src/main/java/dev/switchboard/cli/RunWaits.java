package dev.switchboard.cli;

import jakarta.json.JsonObject;
import java.time.Duration;
import java.time.Instant;

/** Waiting for a run to end: jagc's {@code run wait} rules on the server's long poll. */
final class RunWaits {

    /** The server holds a wait at most this long per request; longer waits are several requests. */
    private static final long LONG_POLL_SECONDS = 30;

    private RunWaits() {
    }

    /**
     * jagc's option check: a number greater than zero, else commander's message. Done before any
     * request is made.
     */
    static double positive(String option, String label, String value) {
        double number;
        try {
            number = Double.parseDouble(value.strip());
        } catch (NumberFormatException e) {
            number = Double.NaN;
        }
        if (!(number > 0) || Double.isInfinite(number)) {
            throw new CliException("error: option '" + option + " " + label + "' argument '" + value
                    + "' is invalid. must be a positive number");
        }
        return number;
    }

    /**
     * The run once it is no longer {@code running}; polls no more often than {@code interval}.
     * Throws {@code timed out waiting for run <id>} at the deadline.
     */
    static JsonObject await(Api api, String runId, Duration timeout, Duration interval) throws InterruptedException {
        Instant deadline = Instant.now().plus(timeout);
        String path = "/v1/runs/" + Api.escape(runId);
        while (true) {
            long remaining = Duration.between(Instant.now(), deadline).toMillis();
            long hold = Math.min(LONG_POLL_SECONDS, Math.max(0, remaining / 1000));
            Instant asked = Instant.now();
            JsonObject run = hold == 0 ? api.get(path) : api.get(path + "/wait?timeout=" + hold, Duration.ofSeconds(hold));
            if (Texts.ended(run)) {
                return run;
            }
            Instant next = asked.plus(interval);
            if (!next.isBefore(deadline)) {
                throw new CliException("timed out waiting for run " + runId);
            }
            long pause = Duration.between(Instant.now(), next).toMillis();
            if (pause > 0) {
                Thread.sleep(pause);
            }
        }
    }
}
