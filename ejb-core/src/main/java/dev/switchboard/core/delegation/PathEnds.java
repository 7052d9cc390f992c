package dev.switchboard.core.delegation;

import dev.switchboard.core.lifecycle.Lifecycle;
import dev.switchboard.persistence.run.RunState;
import java.util.Set;

/**
 * How a path ends, as plain rules: what a call's run ending means for its caller (§3.5, §3.6, X9),
 * and how a tree's root closes with its unit of work.
 */
public final class PathEnds {

    /** The text of a handler failure, as its caller sees it (the real error is kept for operators). */
    public static final String HANDLER_FAILED = "The handler failed.";

    /** The error codes of runs that were cancelled rather than failed. */
    private static final Set<String> CANCELLED_CODES = Set.of("cancelled", "interrupted", "superseded");

    private PathEnds() {
    }

    /**
     * What the caller gets and what the path becomes when a call's run ends: a failed run is a
     * {@code handler} SystemError (path {@code failed}, its error kept), an answer of nothing an
     * {@code ack} (path {@code completed}), anything else the reply's text (path {@code responded}).
     *
     * @param status the slot's status: {@code reply}, {@code ack} or {@code error}
     * @param code the SystemError code, or null
     * @param text what the caller gets
     * @param pathStatus what the responder's path closes as
     * @param kept what the path keeps as its result (the handler's own error for a failure)
     */
    public record CallEnd(String status, String code, String text, String pathStatus, String kept) {

        public boolean isError() {
            return "error".equals(status);
        }
    }

    public static CallEnd ofCall(RunState state, String outputJson, String errorMessage) {
        if (state != RunState.SUCCEEDED) {
            return new CallEnd("error", "handler", HANDLER_FAILED, "failed", errorMessage);
        }
        if (PathLedger.answersNothing(outputJson)) {
            return new CallEnd("ack", null, "ack", "completed", "ack");
        }
        String text = Lifecycle.replyText(outputJson);
        String reply = text == null ? "" : text;
        return new CallEnd("reply", null, reply, "responded", reply);
    }

    /** The status a tree's root and entry path close with when their unit of work ended as its run did. */
    public static String ofUnit(RunState state, String errorCode) {
        if (state == RunState.SUCCEEDED) {
            return "completed";
        }
        return errorCode != null && CANCELLED_CODES.contains(errorCode) ? "cancelled" : "failed";
    }
}
