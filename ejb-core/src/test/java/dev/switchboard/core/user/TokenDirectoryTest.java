package dev.switchboard.core.user;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class TokenDirectoryTest {

    private static final String ALICE = "alice-token-0123456789";
    private static final String BOB = "bob-token-0123456789ab";

    @Test
    void withoutTokensOnlyLoopbackCallersAreTheLocalUser() {
        TokenDirectory open = TokenDirectory.parse("  ");
        assertTrue(open.isOpen());
        assertEquals(Optional.of("local"), open.authenticate(null, true).user());
        assertEquals(Authentication.Refusal.REMOTE_WITHOUT_TOKENS, open.authenticate(null, false).refusal());
        assertEquals(Authentication.Refusal.REMOTE_WITHOUT_TOKENS,
                open.authenticate("Bearer " + ALICE, false).refusal());
    }

    @Test
    void bearerTokensMapToTheirUsers() {
        TokenDirectory dir = TokenDirectory.parse(ALICE + "=alice, " + BOB + "=bob");
        assertEquals(Optional.of("alice"), dir.authenticate("Bearer " + ALICE, false).user());
        assertEquals(Optional.of("bob"), dir.authenticate("bearer " + BOB, true).user());
        assertEquals(Authentication.Refusal.UNKNOWN_TOKEN, dir.authenticate("Bearer nope", true).refusal());
        assertEquals(Authentication.Refusal.MISSING_TOKEN, dir.authenticate(null, true).refusal(),
                "with tokens configured, loopback callers need one too");
        assertEquals(Authentication.Refusal.MISSING_TOKEN, dir.authenticate("Basic abc", true).refusal());
    }

    @Test
    void badConfigurationIsRejectedWithTheEntryNamed() {
        assertEquals("switchboard.auth.tokens entry 1 must look like <token>=<user>",
                assertThrows(IllegalArgumentException.class, () -> TokenDirectory.parse("novalue")).getMessage());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> TokenDirectory.parse("short=bob"))
                .getMessage().contains("at least 16"));
        assertTrue(assertThrows(IllegalArgumentException.class,
                () -> TokenDirectory.parse(ALICE + "=al ice")).getMessage().contains("invalid user name"));
        assertTrue(assertThrows(IllegalArgumentException.class,
                () -> TokenDirectory.parse(ALICE + "=a," + ALICE + "=b")).getMessage().contains("duplicate"));
    }

    @Test
    void loopbackCallersAreRecognisedByAddress() {
        assertTrue(Authenticator.isLoopback("127.0.0.1"));
        assertTrue(Authenticator.isLoopback("0:0:0:0:0:0:0:1"));
        assertFalse(Authenticator.isLoopback("10.1.2.3"));
        assertFalse(Authenticator.isLoopback(null));
    }
}
