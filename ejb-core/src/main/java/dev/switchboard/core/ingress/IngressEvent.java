package dev.switchboard.core.ingress;

/**
 * An event of the ingress journal as stored ({@code ingress_events}): the envelope as received, the
 * lane it was routed to ({@code sessionKey}), and where it stands ({@link EventStatus}) with the run
 * and turn it was handed to, or of which it is a duplicate (null while held).
 */
public record IngressEvent(String userKey, String eventId, String source, String type, String repo, String dedupeKey,
        String sessionKey, String status, String runId, String turnId, String envelope, long receivedAt) {

    /** The same event as its outcome left it. */
    public IngressEvent settled(String status, String runId, String turnId) {
        return new IngressEvent(userKey, eventId, source, type, repo, dedupeKey, sessionKey, status, runId, turnId,
                envelope, receivedAt);
    }
}
