package dev.switchboard.core.webhook;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import org.junit.jupiter.api.Test;

class EndpointTest {

    private static final Endpoint ENDPOINT = new Endpoint("ep_1", "u", "https://x.example/h", "ci", List.of("turn.completed"),
            null, "old", null, null, true, null, 1, 2);

    @Test
    void aRotatedEndpointSignsWithBothSecretsUntilTheGraceEnds() {
        Endpoint rotated = ENDPOINT.rotated("new", 60, 10_000);
        assertEquals("new", rotated.secret());
        assertEquals(List.of("new", "old"), rotated.signingSecrets(10_000));
        assertEquals(List.of("new", "old"), rotated.signingSecrets(69_999));
        assertEquals(List.of("new"), rotated.signingSecrets(70_000), "the grace is over");
        assertEquals(10_000, rotated.updatedAt());
        assertEquals(ENDPOINT.url(), rotated.url());
    }

    @Test
    void aRotationWithoutGraceDropsTheOldSecretAtOnce() {
        Endpoint rotated = ENDPOINT.rotated("new", 0, 10_000);
        assertNull(rotated.previousSecret());
        assertNull(rotated.previousUntil());
        assertEquals(List.of("new"), rotated.signingSecrets(10_000));
    }
}
