package dev.switchboard.core.engine;

import dev.switchboard.core.json.Jsons;
import jakarta.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Spec §11.3's emergency compaction: when the model server refuses a call because its input is
 * longer than the model's context, the call is tried once more with only the system messages
 * before the newest user message, a note that earlier history was left out (when some was), and
 * that user message with everything after it. Plain rules, so the engine only decides when.
 */
public final class ContextOverflow {

    public static final String NOTE = "[Note: Earlier conversation history was automatically compacted to fit within"
            + " the context window. The most recent exchange is preserved below.]";

    /** A model server's refusal of an input longer than its context. */
    public static final class Exceeded extends EngineFailure {
        private static final long serialVersionUID = 1L;

        public Exceeded(String message) {
            super(message);
        }
    }

    private ContextOverflow() {
    }

    /**
     * Whether an error answer says the input is longer than the model's context: a 400 or 413 whose
     * body names it as OpenAI-style servers (including vLLM and llama.cpp's) do.
     */
    public static boolean isOverflow(int status, String body) {
        if ((status != 400 && status != 413) || body == null) {
            return false;
        }
        String text = body.toLowerCase(Locale.ROOT);
        return text.contains("context_length_exceeded") || text.contains("context length") || text.contains("context window")
                || text.contains("maximum context") || text.contains("exceeds the context");
    }

    /** The input of the retry; the same list when nothing before the newest user message could go. */
    public static List<JsonObject> emergency(List<JsonObject> input) {
        int lastUser = -1;
        for (int i = input.size() - 1; i >= 0 && lastUser < 0; i--) {
            if (isMessage(input.get(i), "user")) {
                lastUser = i;
            }
        }
        if (lastUser <= 0) {
            return input;
        }
        List<JsonObject> fitted = new ArrayList<>();
        boolean dropped = false;
        for (JsonObject item : input.subList(0, lastUser)) {
            if (isMessage(item, "system") || isMessage(item, "developer")) {
                fitted.add(item);
            } else {
                dropped = true;
            }
        }
        if (!dropped) {
            return input;
        }
        fitted.add(Jsons.createObjectBuilder().add("type", "message").add("role", "system")
                .add("content", Jsons.createArrayBuilder().add(Jsons.createObjectBuilder().add("type", "input_text")
                        .add("text", NOTE))).build());
        fitted.addAll(input.subList(lastUser, input.size()));
        return fitted;
    }

    private static boolean isMessage(JsonObject item, String role) {
        return "message".equals(item.getString("type", "message")) && role.equals(item.getString("role", ""));
    }
}
