package dev.switchboard.rest.errors;

/**
 * A door whose errors have a body of their own (the Open Responses paths have the specification's):
 * where the container answers on its own, before any resource — a malformed request its error page
 * answers — the door's body is used for its paths instead of the envelope. A CDI bean of the door's
 * module; the generic parts name no door.
 */
public interface ErrorBodies {

    /** Whether {@code path} (from the module's root, without the leading slash) is the door's. */
    boolean covers(String path);

    /** The door's body for a refusal with the envelope's {@code status}, {@code code} and {@code message}. */
    String body(int status, String code, String message);
}
