package dev.switchboard.core.ingress;

/** Where an event of the journal ({@code ingress_events.status}) stands. */
public final class EventStatus {

    /** Handed to its lane as a run. */
    public static final String ACCEPTED = "accepted";
    /** A resend of an event already accepted or held: nothing new ran. */
    public static final String DUPLICATE = "duplicate";
    /** Held while the user's runtime is paused; released in arrival order on resume. */
    public static final String HELD = "deferred";

    private EventStatus() {
    }
}
