package dev.switchboard.core.conversation;

import jakarta.json.JsonObject;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/** What one inbound message asks for (spec §5): ordinary input, a command, or an approval. */
public sealed interface Submission {

    /** Commands that act on the thread rather than talk to the agent. */
    default boolean isControl() {
        return this instanceof Interrupt || this instanceof Compact || this instanceof Undo || this instanceof Redo
                || this instanceof Clear || this instanceof NewThread || this instanceof Heartbeat
                || this instanceof Summarize || this instanceof Suggest || this instanceof JobStatus
                || this instanceof JobCancel || this instanceof SystemCommand;
    }

    /** Text for the agent. */
    record UserInput(String content) implements Submission {
    }

    record Undo() implements Submission {
    }

    record Redo() implements Submission {
    }

    record Interrupt() implements Submission {
    }

    record Compact() implements Submission {
    }

    record Clear() implements Submission {
    }

    record Heartbeat() implements Submission {
    }

    record Summarize() implements Submission {
    }

    record Suggest() implements Submission {
    }

    /** {@code /expected <text>}: what the user expected instead. */
    record Expected(String description) implements Submission {
    }

    record NewThread() implements Submission {
    }

    record SwitchThread(UUID threadId) implements Submission {
    }

    /** {@code /resume} without a checkpoint: list the threads. */
    record ListThreads() implements Submission {
    }

    /** {@code /resume <checkpoint id>}. */
    record Resume(UUID checkpointId) implements Submission {
    }

    /** {@code /help}, {@code /model gpt-x} …: {@code command} without its slash, lower case; arguments as typed. */
    record SystemCommand(String command, List<String> args) implements Submission {
    }

    record Quit() implements Submission {
    }

    record JobStatus(Optional<String> jobId) implements Submission {
    }

    record JobCancel(String jobId) implements Submission {
    }

    /** {@code approve <channel> <code>}: pairing a chat channel account with the user. */
    record PairingClaim(String channel, String code) implements Submission {
    }

    /** A structured approval naming its request ({@code {"ExecApproval":{…}}}). */
    record ExecApproval(UUID requestId, boolean approved, boolean always) implements Submission {
    }

    /** A keyword approval ({@code yes}, {@code always}, {@code no} …) of whatever is pending. */
    record ApprovalResponse(boolean approved, boolean always) implements Submission {
    }

    /** No longer supported; answered at once. */
    record ExternalCallback(JsonObject payload) implements Submission {
    }

    /** No longer supported; answered at once. */
    record GateAuthResolution(JsonObject payload) implements Submission {
    }
}
