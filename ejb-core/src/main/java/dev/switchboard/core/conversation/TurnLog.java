package dev.switchboard.core.conversation;

import dev.switchboard.core.engine.ClientCall;
import dev.switchboard.core.json.Jsons;
import jakarta.json.JsonException;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A thread's turns and the model context they make (spec §3.2, §3.5), as Open Responses items:
 * per turn the user's message, then each tool call ({@code function_call}, with an id derived from
 * the turn's and the call's position) and its output (the error, else the result, else
 * {@code OK}; cut to 1000 bytes), then the reply. A turn still running gives only its message. A
 * compaction's summary, when there is one, opens the context (decision I10).
 */
public final class TurnLog {

    static final int MAX_TOOL_OUTPUT_BYTES = 1000;
    private static final String BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

    private final List<Turn> turns = new ArrayList<>();
    private String summary;

    public List<Turn> turns() {
        return List.copyOf(turns);
    }

    public Optional<Turn> last() {
        return turns.isEmpty() ? Optional.empty() : Optional.of(turns.get(turns.size() - 1));
    }

    /** The number people see for the next (or running) turn: turns so far + 1. */
    public int turnNumber() {
        return turns.size() + 1;
    }

    public Turn startTurn(String userInput, Instant now) {
        Turn turn = new Turn(turns.size(), userInput, now);
        turns.add(turn);
        return turn;
    }

    /** Ends the last turn with a reply ({@code response} null: completed silently); nothing on an empty log. */
    public void complete(String response, Instant now) {
        last().ifPresent(t -> end(t, Turn.State.COMPLETED, now).response = response);
    }

    public void fail(String error, Instant now) {
        last().ifPresent(t -> end(t, Turn.State.FAILED, now).error = error);
    }

    public void interrupt(Instant now) {
        last().ifPresent(t -> end(t, Turn.State.INTERRUPTED, now));
    }

    private static Turn end(Turn t, Turn.State state, Instant now) {
        t.state = state;
        t.completedAt = now;
        return t;
    }

    /** Keeps the newest {@code keep} turns, numbered again from 0; nothing when there are no more. */
    public int truncate(int keep) {
        int removed = Math.max(0, turns.size() - keep);
        if (removed > 0) {
            turns.subList(0, removed).clear();
            for (int i = 0; i < turns.size(); i++) {
                turns.get(i).turnNumber = i;
            }
        }
        return removed;
    }

    public void clear() {
        turns.clear();
        summary = null;
    }

    public Optional<String> summary() {
        return Optional.ofNullable(summary);
    }

    /** The summary of the turns compaction removed, put back at the head of the context (I10). */
    public void summarised(String text) {
        summary = text;
    }

    /** The model context (spec §3.5). */
    public List<JsonObject> messages() {
        List<JsonObject> items = new ArrayList<>();
        if (summary != null) {
            items.add(message("user", "Summary of the earlier conversation:\n" + summary));
        }
        for (int t = 0; t < turns.size(); t++) {
            Turn turn = turns.get(t);
            items.add(message("user", turn.userInput));
            for (int c = 0; c < turn.toolCalls.size(); c++) {
                Turn.ToolCall call = turn.toolCalls.get(c);
                String id = callId(t, c);
                items.add(Jsons.createObjectBuilder().add("type", "function_call").add("call_id", id).add("name", call.name)
                        .add("arguments", call.parameters.toString()).build());
                items.add(Jsons.createObjectBuilder().add("type", "function_call_output").add("call_id", id)
                        .add("output", output(call)).build());
            }
            if (turn.response != null) {
                items.add(message("assistant", turn.response));
            }
        }
        return items;
    }

    /**
     * Rebuilds the turns from a model context: each user message starts a turn, calls and their
     * outputs join it by position (outputs always as results), an assistant message ends it; what
     * comes before the first user message is skipped; a turn without a reply stays running.
     */
    public void restore(List<JsonObject> messages, Instant now) {
        turns.clear();
        int outputs = 0;
        for (JsonObject item : messages) {
            String type = item.getString("type", "message");
            Turn current = turns.isEmpty() ? null : turns.get(turns.size() - 1);
            if ("message".equals(type) && "user".equals(item.getString("role", ""))) {
                startTurn(text(item), now);
                outputs = 0;
            } else if (current == null) {
                continue;
            } else if ("function_call".equals(type)) {
                current.recordToolCall(item.getString("name", ""), parse(item.getString("arguments", "{}")),
                        item.getString("call_id", null));
            } else if ("function_call_output".equals(type)) {
                if (outputs < current.toolCalls.size()) {
                    JsonValue output = item.get("output");
                    current.toolCalls.get(outputs++).result = output instanceof JsonString ? output : Jsons.createValue(
                            String.valueOf(output));
                }
            } else if ("message".equals(type) && "assistant".equals(item.getString("role", ""))) {
                end(current, Turn.State.COMPLETED, now).response = text(item);
            }
        }
    }

    static String callId(int turn, int call) {
        long h = Integer.toUnsignedLong(Objects.hash(turn, call)) * 0x9E3779B97F4A7C15L;
        StringBuilder id = new StringBuilder();
        for (int i = 0; i < 9; i++) {
            id.append(BASE62.charAt((int) Long.remainderUnsigned(h, 62)));
            h = Long.divideUnsigned(h, 62) ^ (h << 7);
        }
        return id.toString();
    }

    static String output(Turn.ToolCall call) {
        if (call.error != null) {
            return cut(call.error);
        }
        if (call.result != null) {
            return cut(call.result instanceof JsonString s ? s.getString() : call.result.toString());
        }
        return "OK";
    }

    /** At most {@link #MAX_TOOL_OUTPUT_BYTES} bytes of UTF-8, not splitting a character, then {@code ...}. */
    static String cut(String text) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        if (bytes.length <= MAX_TOOL_OUTPUT_BYTES) {
            return text;
        }
        int end = MAX_TOOL_OUTPUT_BYTES;
        while (end > 0 && (bytes[end] & 0xC0) == 0x80) {
            end--;
        }
        return new String(bytes, 0, end, StandardCharsets.UTF_8) + "...";
    }

    static JsonObject message(String role, String text) {
        return Jsons.createObjectBuilder().add("type", "message").add("role", role)
                .add("content", Jsons.createArrayBuilder().add(Jsons.createObjectBuilder()
                        .add("type", "user".equals(role) ? "input_text" : "output_text").add("text", text)))
                .build();
    }

    private static String text(JsonObject item) {
        return ClientCall.text(item);
    }

    private static JsonValue parse(String json) {
        try (JsonReader reader = Jsons.createReader(new StringReader(json))) {
            return reader.readValue();
        } catch (JsonException e) {
            return Jsons.createValue(json);
        }
    }
}
