package dev.switchboard.core.conversation;

import jakarta.json.JsonValue;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * One user input and what came of it (spec §3.3): the response, the tool calls made on the way,
 * and how it ended. {@code turnNumber} counts from 0 within the thread.
 */
public final class Turn {

    public enum State {
        PROCESSING, COMPLETED, FAILED, INTERRUPTED
    }

    /** A tool call of the turn; {@code result} and {@code error} are filled when it ran. */
    public static final class ToolCall {
        final String name;
        final JsonValue parameters;
        final String toolCallId;
        JsonValue result;
        String error;

        public ToolCall(String name, JsonValue parameters, String toolCallId) {
            this.name = name;
            this.parameters = parameters;
            this.toolCallId = toolCallId;
        }

        public String name() {
            return name;
        }

        public JsonValue parameters() {
            return parameters;
        }

        public Optional<String> toolCallId() {
            return Optional.ofNullable(toolCallId);
        }

        public Optional<JsonValue> result() {
            return Optional.ofNullable(result);
        }

        public Optional<String> error() {
            return Optional.ofNullable(error);
        }

        boolean isPending() {
            return result == null && error == null;
        }
    }

    int turnNumber;
    final String userInput;
    final Instant startedAt;
    final List<ToolCall> toolCalls = new ArrayList<>();
    State state = State.PROCESSING;
    String response;
    String error;
    Instant completedAt;

    Turn(int turnNumber, String userInput, Instant startedAt) {
        this.turnNumber = turnNumber;
        this.userInput = userInput;
        this.startedAt = startedAt;
    }

    public int turnNumber() {
        return turnNumber;
    }

    public String userInput() {
        return userInput;
    }

    public State state() {
        return state;
    }

    public Optional<String> response() {
        return Optional.ofNullable(response);
    }

    public Optional<String> error() {
        return Optional.ofNullable(error);
    }

    public Optional<Instant> completedAt() {
        return Optional.ofNullable(completedAt);
    }

    public List<ToolCall> toolCalls() {
        return List.copyOf(toolCalls);
    }

    public void recordToolCall(String name, JsonValue parameters, String toolCallId) {
        toolCalls.add(new ToolCall(name, parameters, toolCallId));
    }

    /** The result of call {@code toolCallId}, else of the first call still waiting; dropped when none waits. */
    public void recordToolResultFor(String toolCallId, JsonValue result) {
        target(toolCallId).ifPresent(c -> c.result = result);
    }

    /** As {@link #recordToolResultFor}, for a failure. */
    public void recordToolErrorFor(String toolCallId, String error) {
        target(toolCallId).ifPresent(c -> c.error = error);
    }

    private Optional<ToolCall> target(String toolCallId) {
        return toolCalls.stream().filter(c -> toolCallId != null && toolCallId.equals(c.toolCallId)).findFirst()
                .or(() -> toolCalls.stream().filter(ToolCall::isPending).findFirst());
    }
}
