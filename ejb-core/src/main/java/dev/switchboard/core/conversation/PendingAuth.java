package dev.switchboard.core.conversation;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * A thread waiting for a credential (spec §9): the next message within the TTL ({@link #TTL} unless
 * configured) is the token for {@code extensionName}, never a turn. Expired strictly after the TTL.
 */
public record PendingAuth(String extensionName, Instant createdAt) {

    public static final Duration TTL = Duration.ofSeconds(300);
    /** The longest token accepted. */
    public static final int MAX_TOKEN = 4096;
    public static final String INVALID_TOKEN = "Invalid token. Please try again.";

    /** What a message to a thread that waits for a credential is (spec §9's interception). */
    public enum Interception {
        /** User input within the TTL: the text is the token. */
        TOKEN,
        /** User input after the TTL: auth mode ends, the user is told it expired; no turn. */
        EXPIRED_INPUT,
        /** A command after the TTL: auth mode ends quietly, the command goes on. */
        EXPIRED,
        /** A command within the TTL: auth mode is cancelled, the command goes on. */
        CANCEL
    }

    public boolean isExpired(Instant now) {
        return isExpired(now, TTL);
    }

    public boolean isExpired(Instant now, Duration ttl) {
        return Duration.between(createdAt, now).compareTo(ttl) > 0;
    }

    /**
     * What {@code submission} is to this thread. A bare approval keyword is user input here: a
     * thread that waits for a credential waits for no approval (spec §8.1).
     */
    public Interception intercept(Submission submission, Instant now, Duration ttl) {
        boolean input = submission instanceof Submission.UserInput || submission instanceof Submission.ApprovalResponse;
        if (isExpired(now, ttl)) {
            return input ? Interception.EXPIRED_INPUT : Interception.EXPIRED;
        }
        return input ? Interception.TOKEN : Interception.CANCEL;
    }

    /** The spec's answer to input after the TTL. */
    public String expiredReply() {
        return "Authentication for **" + extensionName + "** expired. Please try again.";
    }

    /**
     * The token a message holds: its text trimmed, when that is one word of printable characters
     * of at most {@value #MAX_TOKEN}; empty otherwise ({@link #INVALID_TOKEN}).
     */
    public static Optional<String> token(String text) {
        String token = text == null ? "" : text.strip();
        if (token.isEmpty() || token.length() > MAX_TOKEN) {
            return Optional.empty();
        }
        for (int i = 0; i < token.length(); i++) {
            char ch = token.charAt(i);
            if (Character.isWhitespace(ch) || Character.isISOControl(ch)) {
                return Optional.empty();
            }
        }
        return Optional.of(token);
    }
}
