package dev.switchboard.core.ingress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class WebhookSignatureTest {

    private static final String SECRET = "It's a Secret to Everybody";
    private static final byte[] BODY = "Hello, World!".getBytes(StandardCharsets.UTF_8);

    @Test
    void githubsDocumentedExample() {
        assertEquals("sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17",
                WebhookSignature.sign(SECRET, BODY));
    }

    @Test
    void verifiesOnlyTheExactSignature() {
        String good = WebhookSignature.sign(SECRET, BODY);
        assertTrue(WebhookSignature.verify(SECRET, BODY, good));
        assertTrue(WebhookSignature.verify(SECRET, BODY, good.toUpperCase().replace("SHA256=", "sha256=")));
        assertFalse(WebhookSignature.verify(SECRET, BODY, null));
        assertFalse(WebhookSignature.verify(SECRET, BODY, good.substring(7)), "the sha256= prefix is required");
        assertFalse(WebhookSignature.verify("another secret", BODY, good));
        assertFalse(WebhookSignature.verify(SECRET, "Hello, World?".getBytes(StandardCharsets.UTF_8), good));
    }
}
