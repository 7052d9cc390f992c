package dev.switchboard.core.notify;

import dev.switchboard.core.json.Jsons;

/**
 * A sequenced notification, ready to send: {@code line} is the JSON-RPC notification with
 * {@code params.seq}, rendered once and shared by every subscriber; {@code createdAt} is when its
 * transaction wrote it (epoch ms, the writer's clock).
 */
public record Notification(long seq, String userKey, String threadKey, String method, String line, long createdAt) {

    /** The notification {@code seq} of a row: {@code params} is its parameters' JSON object text. */
    static Notification of(long seq, String userKey, String threadKey, String method, String params, long createdAt) {
        return new Notification(seq, userKey, threadKey, method, render(seq, method, params), createdAt);
    }

    static Notification of(long seq, OutboxRow r) {
        return of(seq, r.userKey(), r.threadKey(), r.method(), r.params(), r.createdAt());
    }

    /** What a subscriber cut off as too slow is told last: where to resume ({@code after_seq}). */
    public static String overflowNotice(long lastSentSeq) {
        return Jsons.createObjectBuilder().add("jsonrpc", "2.0").add("method", "stream/overflow")
                .add("params", Jsons.createObjectBuilder().add("last_seq", lastSentSeq)
                        .add("message", "subscriber fell too far behind; resume with after_seq"))
                .build().toString();
    }

    /** The JSON-RPC notification; {@code params} is a JSON object text, {@code method} needs no escaping. */
    static String render(long seq, String method, String params) {
        String body = params.strip();
        String withSeq = body.equals("{}") ? "{\"seq\":" + seq + "}"
                : "{\"seq\":" + seq + "," + body.substring(1);
        return "{\"jsonrpc\":\"2.0\",\"method\":\"" + method + "\",\"params\":" + withSeq + "}";
    }
}
