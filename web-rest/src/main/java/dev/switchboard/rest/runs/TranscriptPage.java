package dev.switchboard.rest.runs;

import dev.switchboard.core.engine.ClientCall;
import dev.switchboard.core.run.Transcripts;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.time.Instant;

/**
 * A shared transcript as one HTML page: the thread's items in order, each as who said it and what,
 * every text escaped — a transcript is what people and models wrote, and the page runs no script
 * (its content security policy allows none). Plain: unit tests read what it writes.
 */
final class TranscriptPage {

    /** Inline style only: the page loads nothing, so nothing of it reaches another origin. */
    static final String CONTENT_SECURITY_POLICY = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none';"
            + " form-action 'none'; frame-ancestors 'none'";

    private TranscriptPage() {
    }

    static String html(Transcripts.Transcript transcript) {
        StringBuilder page = new StringBuilder(4096);
        page.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">")
                .append("<meta name=\"robots\" content=\"noindex\"><title>Transcript of ")
                .append(escape(transcript.threadKey())).append("</title><style>")
                .append("body{font-family:system-ui,sans-serif;max-width:50rem;margin:2rem auto;padding:0 1rem;color:#222}")
                .append(".item{margin:1rem 0;padding:.6rem .9rem;border-radius:.4rem;background:#f4f4f4}")
                .append(".user{background:#e8f0fe}.who{font-size:.8rem;color:#555;margin-bottom:.3rem}")
                .append("pre{white-space:pre-wrap;word-wrap:break-word;margin:0;font-family:inherit}")
                .append("</style></head><body><h1>").append(escape(transcript.threadKey())).append("</h1>\n<p>Shared ")
                .append(Instant.ofEpochMilli(transcript.sharedAt())).append(", read-only.");
        if (transcript.omitted() > 0) {
            page.append(' ').append(transcript.omitted()).append(" earlier item(s) are not shown.");
        }
        page.append("</p>\n");
        if (transcript.items().isEmpty()) {
            page.append("<p>Nothing has been said in this thread yet.</p>\n");
        }
        for (JsonObject item : transcript.items()) {
            String who = who(item);
            page.append("<div class=\"item ").append("user".equals(who) ? "user" : "other").append("\"><div class=\"who\">")
                    .append(escape(who)).append("</div><pre>").append(escape(what(item))).append("</pre></div>\n");
        }
        return page.append("</body></html>\n").toString();
    }

    /** Who an item is from: a message's role, else its type (a tool call, its output, reasoning). */
    static String who(JsonObject item) {
        String type = item.getString("type", "message");
        return "message".equals(type) ? item.getString("role", "user") : type.replace('_', ' ');
    }

    /** What an item says: a message's text, a call's name and arguments, an output's text. */
    static String what(JsonObject item) {
        return switch (item.getString("type", "message")) {
            case "message" -> ClientCall.text(item);
            case "function_call" -> item.getString("name", "") + "(" + item.getString("arguments", "") + ")";
            case "function_call_output" -> text(item.get("output"));
            default -> text(item.get("text") != null ? item.get("text") : item.get("summary"));
        };
    }

    private static String text(JsonValue value) {
        if (value == null || value == JsonValue.NULL) {
            return "";
        }
        return value instanceof JsonString s ? s.getString() : value.toString();
    }

    /** The five characters HTML gives meaning to, in text and in attribute values. */
    static String escape(String text) {
        StringBuilder out = new StringBuilder(text.length() + 16);
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '&' -> out.append("&amp;");
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '"' -> out.append("&quot;");
                case '\'' -> out.append("&#39;");
                default -> out.append(c);
            }
        }
        return out.toString();
    }
}
