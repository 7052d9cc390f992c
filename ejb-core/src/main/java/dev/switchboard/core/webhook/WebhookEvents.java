package dev.switchboard.core.webhook;

import jakarta.json.JsonObject;
import java.util.List;
import java.util.Set;

/**
 * The event types an endpoint can hear, and which notifications are which. A webhook event is a
 * notification of the log under a stable, dotted name; its data are the notification's params.
 * Run events are the runs of a turn that ended, told when the turn ends (every run belongs to a
 * turn; a turn's runs are read then, so the message path writes nothing more for them).
 */
public final class WebhookEvents {

    public static final String TURN_COMPLETED = "turn.completed";
    public static final String TURN_FAILED = "turn.failed";
    public static final String TURN_CANCELLED = "turn.cancelled";
    public static final String RUN_SUCCEEDED = "run.succeeded";
    public static final String RUN_FAILED = "run.failed";
    public static final String RUN_CANCELLED = "run.cancelled";
    public static final String APPROVAL_REQUESTED = "approval.requested";
    public static final String AUTH_REQUIRED = "auth.required";
    public static final String DELEGATION_COMPLETED = "delegation.completed";
    public static final String INGRESS_EVENT_RECEIVED = "ingress.event.received";

    /** Every type, in the order the documentation lists them. */
    public static final List<String> ALL = List.of(TURN_COMPLETED, TURN_FAILED, TURN_CANCELLED, RUN_SUCCEEDED,
            RUN_FAILED, RUN_CANCELLED, APPROVAL_REQUESTED, AUTH_REQUIRED, DELEGATION_COMPLETED, INGRESS_EVENT_RECEIVED);

    /** The notification methods that can be an event: what the fan-out reads of the log. */
    public static final List<String> METHODS = List.of("turn/completed", "turn/interrupted", "approval/requested",
            "auth/required", "delegation/hop", "event/received");

    /** The run types; a turn's end brings its runs' events when an endpoint wants one of them. */
    public static final Set<String> RUN_TYPES = Set.of(RUN_SUCCEEDED, RUN_FAILED, RUN_CANCELLED);

    /** Delegation hops that end a call. */
    private static final Set<String> CALL_ENDINGS = Set.of("replied", "failed", "timed_out");

    private WebhookEvents() {
    }

    public static boolean isType(String type) {
        return ALL.contains(type);
    }

    /** The event a notification is; null when it is none (or a hop that ends no call). */
    public static String typeOf(String method, JsonObject params) {
        return switch (method) {
            case "turn/completed" -> TURN_COMPLETED;
            case "turn/interrupted" -> "failed".equals(params.getString("status", null)) ? TURN_FAILED : TURN_CANCELLED;
            case "approval/requested" -> APPROVAL_REQUESTED;
            case "auth/required" -> AUTH_REQUIRED;
            case "delegation/hop" -> CALL_ENDINGS.contains(params.getString("kind", "")) ? DELEGATION_COMPLETED : null;
            case "event/received" -> INGRESS_EVENT_RECEIVED;
            default -> null;
        };
    }

    /** True for a turn's end, whose runs may be events too. */
    public static boolean endsTurn(String type) {
        return TURN_COMPLETED.equals(type) || TURN_FAILED.equals(type) || TURN_CANCELLED.equals(type);
    }

    /**
     * The run event of a finished run; null for an unfinished one. A cancelled run ends
     * {@code failed} with code {@code cancelled} (jagc J6).
     */
    public static String runType(String state, String errorCode) {
        return switch (state) {
            case "succeeded" -> RUN_SUCCEEDED;
            case "failed" -> "cancelled".equals(errorCode) ? RUN_CANCELLED : RUN_FAILED;
            default -> null;
        };
    }
}
