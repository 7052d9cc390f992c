package dev.switchboard.core.input;

import java.util.Locale;

/**
 * How a WebSocket is closed for what its client sent: an RFC 6455 code and a short fixed reason
 * of ours, never a container's message id, class name or exception text. Plain, so that every
 * endpoint closes alike; the web modules turn it into their API's close reason.
 */
public record SocketClose(int code, String reason) {

    /** 1009: a message above the endpoint's limit. */
    public static SocketClose tooBig(long maxMessageBytes) {
        return new SocketClose(1009, "message larger than " + maxMessageBytes + " bytes");
    }

    /**
     * The close for an error the container reports while reading: its exceptions carry no code,
     * so the kind is recognised from what they say — and only the kind is passed on.
     */
    public static SocketClose forError(Throwable error) {
        String text = describe(error).toLowerCase(Locale.ROOT);
        if (text.contains("size") || text.contains("too big") || text.contains("too large") || text.contains("larger")) {
            return new SocketClose(1009, "message too big");
        }
        if (text.contains("utf-8") || text.contains("utf8") || text.contains("malformed")) {
            return new SocketClose(1007, "invalid UTF-8");
        }
        if (text.contains("opcode") || text.contains("frame") || text.contains("protocol") || text.contains("mask")) {
            return new SocketClose(1002, "protocol error");
        }
        return new SocketClose(1011, "internal error");
    }

    private static String describe(Throwable error) {
        StringBuilder b = new StringBuilder();
        for (Throwable t = error; t != null && b.length() < 4096; t = t.getCause() == t ? null : t.getCause()) {
            b.append(t.getClass().getSimpleName()).append(' ').append(t.getMessage()).append(' ');
        }
        return b.toString();
    }
}
