package dev.switchboard.core.conversation;

import jakarta.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;

/**
 * The rules of tool approvals (spec §7.2, §8.2): which calls need a person, which of a model
 * message's calls run before the first that does, how an approve/always/deny is judged against
 * the pending request, and what the person is told.
 */
public final class Approvals {

    /** What a tool declares. */
    public enum Need {
        /** Runs without asking. */
        NEVER,
        /** Asks unless the user said "always" for it. */
        UNLESS_AUTO_APPROVED,
        /** Asks every time; "always" is not offered. */
        ALWAYS
    }

    /** A model message's calls split at the first that needs approval. */
    public record Preflight(List<JsonObject> runNow, Optional<JsonObject> gated, List<JsonObject> deferred) {
    }

    /** How an approval answer is judged. */
    public sealed interface Verdict {
    }

    /** Nothing waits: Ok with this text, nothing changes. */
    public record NothingPending(String reply) implements Verdict {
    }

    /** The answer names another request: Error with this text, the pending request stays. */
    public record Mismatch(String reply) implements Verdict {
    }

    /** Denied: the turn ends with this text, the deferred calls are dropped, no model call. */
    public record Denied(String reply) implements Verdict {
    }

    /** Approved: run the call with its raw parameters; {@code remember} when "always" is to be kept. */
    public record Approved(PendingApproval approval, boolean remember) implements Verdict {
    }

    private Approvals() {
    }

    public static boolean needsApproval(Need need, boolean autoApproveAll, boolean sessionAutoApproved) {
        if (autoApproveAll) {
            return false;
        }
        return need == Need.ALWAYS || need == Need.UNLESS_AUTO_APPROVED && !sessionAutoApproved;
    }

    /** The calls, in order, up to the first that needs approval; it; and the rest after it. */
    public static Preflight preflight(List<JsonObject> calls, Function<String, Need> needOf, boolean autoApproveAll,
            Set<String> autoApproved) {
        List<JsonObject> runNow = new ArrayList<>();
        for (int i = 0; i < calls.size(); i++) {
            String name = calls.get(i).getString("name", "");
            if (needsApproval(needOf.apply(name), autoApproveAll, autoApproved.contains(name))) {
                return new Preflight(runNow, Optional.of(calls.get(i)), List.copyOf(calls.subList(i + 1, calls.size())));
            }
            runNow.add(calls.get(i));
        }
        return new Preflight(runNow, Optional.empty(), List.of());
    }

    /**
     * Judges an answer (spec §8.2) on a thread in {@code state} with {@code pending} (null when
     * none); {@code requestId} empty for a keyword answer, which applies to whatever is pending.
     */
    public static Verdict judge(ThreadState state, PendingApproval pending, Optional<UUID> requestId, boolean approved,
            boolean always) {
        if (state != ThreadState.AWAITING_APPROVAL) {
            return new NothingPending("No pending approval for this thread.");
        }
        if (pending == null) {
            return new NothingPending("");
        }
        if (requestId.isPresent() && !requestId.get().equals(pending.requestId())) {
            return new Mismatch("Request ID mismatch. Use the correct request ID.");
        }
        if (!approved) {
            return new Denied("Tool '" + pending.toolName() + "' was rejected. The agent will not execute this tool.\n\n"
                    + "You can continue the conversation or try a different approach.");
        }
        return new Approved(pending, always && pending.allowAlways());
    }

    /** What input on a thread awaiting approval is answered with (spec §7.2). */
    public static String reminder(PendingApproval pending) {
        if (pending == null) {
            return "Waiting for approval. Use /interrupt to cancel.";
        }
        String description = pending.description() == null ? "" : pending.description();
        if (description.codePointCount(0, description.length()) > 80) {
            description = description.substring(0, description.offsetByCodePoints(0, 80));
        }
        return "Waiting for approval: " + pending.toolName() + " — " + description + ". Use /interrupt to cancel.";
    }
}
