package dev.switchboard.core.responses;

import dev.switchboard.core.engine.ClientCall;
import dev.switchboard.core.json.Jsons;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * The rules of {@code POST /responses/compact} (spec §10): a conversation is compacted by asking
 * the engine to summarise its transcript; the summary, as one message, is what the compaction item
 * stands for; a compaction item sent as input is replaced by that message before the engine sees
 * the conversation.
 */
public final class Compactions {

    /** The instructions of a compaction run. */
    public static final String INSTRUCTIONS = "You compact conversations. Rewrite the transcript you are given as a"
            + " summary that lets the conversation continue without it: keep every fact, decision, open question,"
            + " tool result and commitment; drop pleasantries and repetition. Answer with the summary only.";

    /** How the summary introduces itself to the engine that continues the conversation. */
    public static final String SUMMARY_PREFIX = "Summary of the conversation so far:\n";

    private Compactions() {
    }

    /** The conversation as text, one line per item, for the engine to summarise. */
    public static String transcript(List<JsonObject> items) {
        StringBuilder text = new StringBuilder();
        for (JsonObject item : items) {
            String line = switch (item.getString("type", "message")) {
                case "message" -> item.getString("role", "user") + ": " + ClientCall.text(item);
                case "function_call" -> "function_call " + item.getString("name", "") + "(" + item.getString("arguments", "")
                        + ") as " + item.getString("call_id", "");
                case "function_call_output" -> "function_call_output " + item.getString("call_id", "") + ": "
                        + ResponseObjects.text(item.get("output"));
                case "reasoning" -> "reasoning: " + item.getJsonArray("summary").getValuesAs(JsonObject.class).stream()
                        .map(s -> s.getString("text", "")).reduce("", (a, b) -> a.isEmpty() ? b : a + " " + b);
                default -> "";
            };
            if (!line.isBlank()) {
                text.append(line).append('\n');
            }
        }
        return text.toString().stripTrailing();
    }

    /** The items a compaction stands for: the summary as one user message. */
    public static JsonArray summaryItems(String summary) {
        return Jsons.createArrayBuilder().add(ResponseObjects.inputMessage("user", SUMMARY_PREFIX + summary)).build();
    }

    /**
     * The input with every compaction item replaced by the items it stands for.
     *
     * @param open the items sealed in an {@code encrypted_content}, empty when it is not this server's for this user
     * @throws ResponseError 400 {@code invalid_value} at {@code input[i].encrypted_content} for one that does not open
     */
    public static List<JsonObject> expand(List<JsonObject> input, Function<String, Optional<JsonArray>> open) {
        if (input.stream().noneMatch(Compactions::isCompaction)) {
            return input;
        }
        List<JsonObject> expanded = new ArrayList<>();
        for (int i = 0; i < input.size(); i++) {
            JsonObject item = input.get(i);
            if (!isCompaction(item)) {
                expanded.add(item);
                continue;
            }
            String path = "input[" + i + "].encrypted_content";
            JsonArray items = open.apply(item.getString("encrypted_content"))
                    .orElseThrow(() -> ResponseError.invalid(path, path + " is not a compaction this server made for you"));
            expanded.addAll(items.getValuesAs(JsonObject.class));
        }
        return List.copyOf(expanded);
    }

    /** The answer to a compaction: {@code object: response.compaction} with its one compaction item and the usage. */
    public static JsonObject result(String responseId, long createdAtMs, String sealed, JsonValue usage) {
        return Jsons.createObjectBuilder().add("id", responseId).add("object", "response.compaction")
                .add("created_at", createdAtMs / 1000)
                .add("output", Jsons.createArrayBuilder().add(Jsons.createObjectBuilder().add("type", "compaction")
                        .add("id", "cmp_" + responseId.substring("resp_".length())).add("status", "completed")
                        .add("encrypted_content", sealed)))
                .add("usage", usage).build();
    }

    static boolean isCompaction(JsonObject item) {
        return "compaction".equals(item.getString("type", ""));
    }
}
