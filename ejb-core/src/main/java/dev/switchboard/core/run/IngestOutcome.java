package dev.switchboard.core.run;

/** The run a message created, or the existing run its idempotency key names. */
public record IngestOutcome(RunView run, long threadId, boolean deduplicated) {
}
