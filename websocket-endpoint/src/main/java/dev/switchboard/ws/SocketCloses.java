package dev.switchboard.ws;

import jakarta.websocket.CloseReason;
import jakarta.websocket.CloseReason.CloseCodes;
import java.util.Locale;

/** Close reasons written for clients: an RFC 6455 code and a short fixed text, never an exception's message. */
final class SocketCloses {

    private SocketCloses() {
    }

    static CloseReason tooBig(int maxMessageBytes) {
        return new CloseReason(CloseCodes.TOO_BIG, "message larger than " + maxMessageBytes + " bytes");
    }

    /**
     * The close for an error the container reports while reading: the container's exceptions
     * carry no code, so the kind is recognised from what it says — and only the kind is passed on.
     */
    static CloseReason forError(Throwable error) {
        String text = describe(error).toLowerCase(Locale.ROOT);
        if (text.contains("size") || text.contains("too big") || text.contains("too large") || text.contains("larger")) {
            return new CloseReason(CloseCodes.TOO_BIG, "message too big");
        }
        if (text.contains("utf-8") || text.contains("utf8") || text.contains("malformed")) {
            return new CloseReason(CloseCodes.NOT_CONSISTENT, "invalid UTF-8");
        }
        if (text.contains("opcode") || text.contains("frame") || text.contains("protocol") || text.contains("mask")) {
            return new CloseReason(CloseCodes.PROTOCOL_ERROR, "protocol error");
        }
        return new CloseReason(CloseCodes.UNEXPECTED_CONDITION, "internal error");
    }

    private static String describe(Throwable error) {
        StringBuilder b = new StringBuilder();
        for (Throwable t = error; t != null && b.length() < 4096; t = t.getCause() == t ? null : t.getCause()) {
            b.append(t.getClass().getSimpleName()).append(' ').append(t.getMessage()).append(' ');
        }
        return b.toString();
    }
}
