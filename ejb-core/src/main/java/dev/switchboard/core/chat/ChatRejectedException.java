package dev.switchboard.core.chat;

import jakarta.ejb.ApplicationException;

/**
 * A chat message or command the thread's state does not allow. Thrown before anything is written,
 * so nothing needs rolling back (and the container logs no rollback for a client's mistake).
 */
@ApplicationException(rollback = false)
public class ChatRejectedException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public enum Reason {
        /** Ten messages already wait for the running turn (spec §7.1). */
        QUEUE_FULL,
        /** No such thread for this user. */
        NOT_FOUND,
        /** An approval answer for a thread that waits for none (spec §6 step 4). */
        NO_PENDING_APPROVAL,
        /** An approval answer from a channel that may not give it (spec §8.4). */
        NOT_AUTHORIZED,
        /** An approval answer that names another request than the pending one. */
        MISMATCH,
        /** A command that cannot run while the thread has an active turn. */
        BUSY,
        /** A token for a thread that waits for no credential. */
        NO_PENDING_AUTH,
        /** A token that came after the thread's auth prompt expired (spec §9). */
        AUTH_EXPIRED,
        /** A token that is not one (blank, spaces inside, too long): the thread asks again. */
        INVALID_TOKEN,
        /** {@code /resume <id>} naming no checkpoint of the thread's undo line. */
        CHECKPOINT_NOT_FOUND,
        /** A command this gateway does not carry out. */
        UNSUPPORTED
    }

    private final Reason reason;

    public ChatRejectedException(Reason reason, String message) {
        super(message);
        this.reason = reason;
    }

    public Reason reason() {
        return reason;
    }
}
