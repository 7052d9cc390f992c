package dev.switchboard.core.webhook;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;

class WebhookSignatureTest {

    /** The example of the Standard Webhooks specification. */
    private static final String SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    private static final String ID = "msg_p5jXN8AQM9LWM0D4loKWxJek";
    private static final long TIMESTAMP = 1614265330;
    private static final String BODY = "{\"test\": 2432232314}";

    @Test
    void signsAsTheSpecificationsExample() {
        assertEquals("v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=",
                WebhookSignature.header(List.of(SECRET), ID, TIMESTAMP, BODY));
    }

    @Test
    void duringARotationBothSecretsSignSpaceSeparated() {
        String other = WebhookSignature.newSecret();
        String header = WebhookSignature.header(List.of(other, SECRET), ID, TIMESTAMP, BODY);
        String[] entries = header.split(" ");
        assertEquals(2, entries.length);
        assertEquals("v1," + WebhookSignature.sign(other, ID, TIMESTAMP, BODY), entries[0]);
        assertEquals("v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=", entries[1]);
    }

    @Test
    void aNewSecretIsAWhsecPrefixedRandomKeyOf256Bits() {
        String a = WebhookSignature.newSecret();
        assertTrue(a.startsWith("whsec_"), a);
        assertEquals(32, Base64.getDecoder().decode(a.substring(6)).length);
        assertNotEquals(a, WebhookSignature.newSecret());
    }
}
