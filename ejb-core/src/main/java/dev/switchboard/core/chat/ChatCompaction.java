package dev.switchboard.core.chat;

import dev.switchboard.core.conversation.ContextMonitor;
import dev.switchboard.core.json.Jsons;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The words of a chat thread's compaction (spec §11): its size in tokens, the request that asks an
 * engine to summarise the turns it leaves out, the message the summary becomes at the head of the
 * context (decision I10), and the answers. Plain: a thread's items in, text out.
 */
public final class ChatCompaction {

    /** How many of the newest turns a summary keeps (spec §11.1's default strategy). */
    public static final int KEEP_RECENT = 5;

    static final String INSTRUCTIONS = "Summarize the conversation below as short bullet points: the decisions made,"
            + " the information shared, the actions taken and their outcomes.";

    private ChatCompaction() {
    }

    /** The tokens of a context's items (their text parts, spec §11.1's estimate). */
    public static long tokens(List<JsonObject> items) {
        return ContextMonitor.tokens(items.stream().map(ChatCompaction::text).toList());
    }

    /** The engine's input for summarising {@code turns} (each a turn's items): user input and replies only. */
    public static String prompt(List<List<JsonObject>> turns) {
        List<String> lines = new ArrayList<>();
        for (List<JsonObject> turn : turns) {
            for (JsonObject item : turn) {
                String role = item.getString("role", "");
                if ("message".equals(item.getString("type", "")) && (role.equals("user") || role.equals("assistant"))) {
                    lines.add((role.equals("user") ? "User: " : "Assistant: ") + text(item));
                }
            }
        }
        return INSTRUCTIONS + "\n\nPlease summarize this conversation:\n\n" + String.join("\n\n", lines);
    }

    /** The summary as the message the engine is given before the turns a compaction kept. */
    public static JsonObject head(String summary) {
        return Jsons.createObjectBuilder().add("type", "message").add("id", "msg_summary").add("status", "completed")
                .add("role", "user").add("content", Jsons.createArrayBuilder().add(Jsons.createObjectBuilder()
                        .add("type", "input_text").add("text", "[Summary of the earlier conversation]\n" + summary)))
                .build();
    }

    /** Spec §11.1's status before an automatic compaction. */
    public static String automatic(double usagePercent) {
        return String.format(java.util.Locale.ROOT, "Context at %.0f%% capacity, compacting...", usagePercent);
    }

    /** Spec §11.1's answer to {@code /compact}. */
    public static String compacted(int removed, long before, long after, double usagePercent) {
        return "Compacted: " + removed + " turns removed, " + before + " → " + after + " tokens (was "
                + String.format(Locale.ROOT, "%.1f", usagePercent) + "% full)";
    }

    static String text(JsonObject item) {
        JsonValue content = item.get("content");
        if (content instanceof JsonArray parts) {
            return parts.stream().filter(p -> p instanceof JsonObject o && o.containsKey("text"))
                    .map(p -> ((JsonObject) p).getString("text", "")).collect(Collectors.joining("\n"));
        }
        if (item.containsKey("output")) {
            return item.getString("output", "");
        }
        return item.getString("arguments", "");
    }
}
