package dev.switchboard.core.user;

import java.util.Optional;

/** The outcome of authenticating a caller: a user, or the reason there is none. */
public record Authentication(Optional<String> user, Refusal refusal) {

    /** Why a caller was refused. */
    public enum Refusal {
        MISSING_TOKEN, UNKNOWN_TOKEN, REMOTE_WITHOUT_TOKENS
    }

    static Authentication of(String user) {
        return new Authentication(Optional.of(user), null);
    }

    static Authentication refused(Refusal why) {
        return new Authentication(Optional.empty(), why);
    }
}
