package dev.switchboard.cli;

import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.util.ArrayList;
import java.util.List;

/** How runs, items and notifications read as one line of text. */
final class Texts {

    private Texts() {
    }

    /** jagc's run line: {@code <run_id> <status>}, then the error's message when there is one. */
    static String runLine(JsonObject run) {
        String line = run.getString("run_id", "?") + " " + run.getString("status", "?");
        if (run.get("error") instanceof JsonObject error && error.get("message") instanceof JsonString message) {
            line += " " + message.getString();
        }
        return line;
    }

    /** Whether a run is over (jagc: its status is no longer {@code running}). */
    static boolean ended(JsonObject run) {
        return !"running".equals(run.getString("status", "running"));
    }

    /** The text of a message (an item's content, a run's output): its text parts joined. */
    static String text(JsonValue content) {
        if (!(content instanceof JsonObject object)) {
            return "";
        }
        if (object.get("text") instanceof JsonString text) {
            return text.getString();
        }
        List<String> parts = new ArrayList<>();
        if (object.get("content") instanceof JsonArray array) {
            for (JsonValue part : array) {
                if (part instanceof JsonObject p && p.get("text") instanceof JsonString text) {
                    parts.add(text.getString());
                }
            }
        }
        if (parts.isEmpty() && "system_announce".equals(object.getString("type", ""))) {
            return object.getString("title", object.getString("text", ""));
        }
        return String.join(" ", parts);
    }

    static String string(JsonObject object, String name) {
        return object.get(name) instanceof JsonString s ? s.getString() : object.containsKey(name) ? String.valueOf(object.get(name)) : "";
    }

    /** One notification as a line: seq, method, thread, and what it says. */
    static String notificationLine(JsonObject notification) {
        String method = notification.getString("method", "?");
        JsonObject params = notification.get("params") instanceof JsonObject p ? p : JsonValue.EMPTY_JSON_OBJECT;
        String seq = params.containsKey("seq") ? String.valueOf(params.get("seq")) : "-";
        return String.format("%6s  %-18s %-16s %s", seq, method, string(params, "thread_id"), summary(method, params)).stripTrailing();
    }

    /** What a notification says, in a few words. */
    static String summary(String method, JsonObject params) {
        return switch (method) {
            case "turn/started" -> string(params, "turn_id");
            case "turn/progress" -> string(params, "turn_id") + " " + string(params, "state");
            case "turn/completed" -> string(params, "turn_id") + " completed";
            case "turn/interrupted" -> string(params, "turn_id") + " " + string(params, "status") + ": " + string(params, "message");
            case "item/created" -> {
                JsonObject content = params.get("content") instanceof JsonObject c ? c : JsonValue.EMPTY_JSON_OBJECT;
                String role = content.getString("role", content.getString("type", "item"));
                yield role + ": " + oneLine(text(content));
            }
            case "event/received" -> string(params, "event_id") + " " + string(params, "event_type");
            case "stream/gap", "stream/overflow" -> string(params, "message");
            default -> string(params, "state");
        };
    }

    static String oneLine(String text) {
        String line = text.replace('\n', ' ').replace('\r', ' ');
        return line.length() > 200 ? line.substring(0, 199) + "…" : line;
    }
}
