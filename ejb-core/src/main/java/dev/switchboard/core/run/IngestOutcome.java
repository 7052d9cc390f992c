package dev.switchboard.core.run;

import dev.switchboard.core.lane.ClaimResult;

/**
 * The run a message created, or the existing run its idempotency key names. {@code claim} says
 * whether the ingest also claimed its idle lane for this instance (then the caller starts it).
 */
public record IngestOutcome(RunView run, long threadId, boolean deduplicated, ClaimResult claim) {

    IngestOutcome(RunView run, long threadId, boolean deduplicated) {
        this(run, threadId, deduplicated, ClaimResult.none());
    }

    /** The same outcome, with what the ingest's claim of its lane did. */
    IngestOutcome claimed(ClaimResult result) {
        return new IngestOutcome(run, threadId, deduplicated, result);
    }

    /** A new run nobody claimed yet: its lane must be woken. */
    boolean wakesLane() {
        return !deduplicated && claim.claim().isEmpty();
    }
}
