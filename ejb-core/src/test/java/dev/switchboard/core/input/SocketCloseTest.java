package dev.switchboard.core.input;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import org.junit.jupiter.api.Test;

class SocketCloseTest {

    @Test
    void aMessageAboveTheLimitIs1009WithTheLimit() {
        assertEquals(new SocketClose(1009, "message larger than 8388608 bytes"), SocketClose.tooBig(8_388_608));
    }

    @Test
    void theContainersErrorsAreRecognisedByKindAndNothingOfTheirTextIsPassedOn() {
        assertEquals(new SocketClose(1009, "message too big"),
                SocketClose.forError(new IOException("CWWKH0037E: The message size exceeds the limit")));
        assertEquals(new SocketClose(1007, "invalid UTF-8"),
                SocketClose.forError(new IllegalStateException("wrapped", new IOException("Malformed input"))));
        assertEquals(new SocketClose(1002, "protocol error"), SocketClose.forError(new IOException("reserved opcode 3")));
        assertEquals(new SocketClose(1011, "internal error"),
                SocketClose.forError(new NullPointerException("com.example.Internal.secret")));
    }
}
