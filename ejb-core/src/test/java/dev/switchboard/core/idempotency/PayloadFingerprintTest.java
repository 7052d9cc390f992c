package dev.switchboard.core.idempotency;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import dev.switchboard.core.run.MessageCommand;
import org.junit.jupiter.api.Test;

class PayloadFingerprintTest {

    @Test
    void samePayloadSameFingerprint() {
        MessageCommand a = new MessageCommand("u", "cli", "t", null, "hi", "followUp", "k");
        MessageCommand b = new MessageCommand("u", "cli", "t", "someone", "hi", "followUp", "k");
        assertEquals(a.fingerprint(), b.fingerprint(), "jagc's hash covers thread, text and mode only");
        assertEquals(64, a.fingerprint().length());
    }

    @Test
    void anyChangeOfThreadTextOrModeChangesIt() {
        String base = PayloadFingerprint.of("t", "hi", "followUp");
        assertNotEquals(base, PayloadFingerprint.of("t2", "hi", "followUp"));
        assertNotEquals(base, PayloadFingerprint.of("t", "hi ", "followUp"));
        assertNotEquals(base, PayloadFingerprint.of("t", "hi", "steer"));
    }

    @Test
    void fieldBoundariesAreUnambiguous() {
        assertNotEquals(PayloadFingerprint.of("ab", "c"), PayloadFingerprint.of("a", "bc"));
    }
}
