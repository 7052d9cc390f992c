package dev.switchboard.core.ingress;

import dev.switchboard.core.lane.ClaimResult;

/**
 * What happened to an event received or requeued: its status, lane ({@code sessionKey}) and the run
 * and turn it became, if any; {@code claim} is a run claimed for this instance.
 */
public record EventOutcome(String eventId, String status, String sessionKey, String runId, String turnId,
        long threadId, ClaimResult claim) {
}
