package dev.switchboard.core.ingress;

/**
 * The door an event came in through, as its metrics label says it: a fixed set, never the sender's
 * words (an envelope's {@code source} is whatever a sender wrote, so it names no series).
 */
public enum IngressDoor {
    /** {@code POST /ingress/github/webhook} (and {@code /webhook}), a GitHub delivery or an envelope sent there. */
    GITHUB("github"),
    /** {@code POST /ingress/events}: a generic envelope. */
    EVENTS("events"),
    /** A configured timer's tick. */
    TIMER("timer");

    private final String label;

    IngressDoor(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }
}
