package dev.switchboard.ws;

import dev.switchboard.core.input.SocketClose;
import jakarta.websocket.CloseReason;

/** Close reasons written for clients ({@link SocketClose}): an RFC 6455 code and a short fixed text. */
final class SocketCloses {

    private SocketCloses() {
    }

    static CloseReason tooBig(int maxMessageBytes) {
        return of(SocketClose.tooBig(maxMessageBytes));
    }

    static CloseReason forError(Throwable error) {
        return of(SocketClose.forError(error));
    }

    private static CloseReason of(SocketClose close) {
        return new CloseReason(CloseReason.CloseCodes.getCloseCode(close.code()), close.reason());
    }
}
