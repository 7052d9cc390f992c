package dev.switchboard.core.user;

import java.util.Optional;

/** The outcome of authenticating a caller: a user, or the reason there is none. */
public record Authentication(Optional<String> user, Refusal refusal) {

    /** Why a caller was refused. */
    public enum Refusal {
        MISSING_TOKEN, UNKNOWN_TOKEN, REMOTE_WITHOUT_TOKENS
    }

    /** What the caller is told when refused (null when authenticated). */
    public String refusalMessage() {
        if (refusal == null) {
            return null;
        }
        return switch (refusal) {
            case MISSING_TOKEN -> "missing bearer token (Authorization: Bearer <token>; "
                    + "on the WebSocket also ?access_token=<token>)";
            case UNKNOWN_TOKEN -> "unknown bearer token";
            case REMOTE_WITHOUT_TOKENS -> "no API tokens are configured: only loopback clients are served";
        };
    }

    static Authentication of(String user) {
        return new Authentication(Optional.of(user), null);
    }

    static Authentication refused(Refusal why) {
        return new Authentication(Optional.empty(), why);
    }
}
