package dev.switchboard.core.conversation;

import jakarta.json.JsonObject;
import java.util.List;
import java.util.UUID;

/**
 * A tool call waiting for a person (spec §3.4): the request id the approver must echo, the call
 * (raw parameters for execution, redacted ones for display), the calls of the same model message
 * that follow it, and whether "always" may be chosen (not for a tool that always asks).
 */
public record PendingApproval(UUID requestId, String toolName, String description, JsonObject parameters,
        JsonObject displayParameters, String toolCallId, List<JsonObject> deferredToolCalls, boolean allowAlways) {

    public PendingApproval {
        deferredToolCalls = List.copyOf(deferredToolCalls);
    }
}
