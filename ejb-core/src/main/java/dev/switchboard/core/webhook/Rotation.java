package dev.switchboard.core.webhook;

import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import java.math.BigInteger;
import java.util.Set;

/**
 * A rotation's request, the one rule of both doors (REST's body, JSON-RPC's params):
 * {@code grace_seconds}, optional — absent means a day — and otherwise a whole number of seconds
 * from 0 to a week ({@code null} is not one); no other member but those the door itself uses (an id).
 * Plain: unit tests drive it.
 */
final class Rotation {

    static final long DEFAULT_GRACE_SECONDS = 86_400;
    static final long MAX_GRACE_SECONDS = 7 * 86_400;

    private Rotation() {
    }

    /** How long the replaced secret keeps signing beside the new one. */
    static long graceSeconds(JsonObject request, Set<String> doorMembers) {
        for (String name : request.keySet()) {
            if (!name.equals("grace_seconds") && !doorMembers.contains(name)) {
                throw WebhookException.invalid("invalid_body", "unknown member " + name + "; known: grace_seconds");
            }
        }
        if (!request.containsKey("grace_seconds")) {
            return DEFAULT_GRACE_SECONDS;
        }
        if (!(request.get("grace_seconds") instanceof JsonNumber n) || !n.isIntegral()) {
            throw WebhookException.invalid("invalid_grace_seconds", "grace_seconds must be a whole number of seconds"
                    + " from 0 to " + MAX_GRACE_SECONDS + " (leave it out for a day)");
        }
        BigInteger seconds = n.bigIntegerValue();
        if (seconds.signum() < 0 || seconds.compareTo(BigInteger.valueOf(MAX_GRACE_SECONDS)) > 0) {
            throw WebhookException.invalid("invalid_grace_seconds", "grace_seconds is from 0 to " + MAX_GRACE_SECONDS);
        }
        return seconds.longValue();
    }
}
