package dev.switchboard.core.user;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Who reads {@code /metrics} (issue 49: without a token, anyone reachable read every user's traffic). */
class MetricsAccessTest {

    private static final TokenDirectory TOKENS = TokenDirectory.parse("alice-token-0123456789=alice,bob-token-0123456789=bob");
    private static final MetricsAccess ACCESS = new MetricsAccess(TOKENS, Set.of("alice"),
            Optional.of("scrape-token-0123456789"));

    @Test
    void withTokensAnOperatorOrTheScrapeTokenReadsIt() {
        assertTrue(ACCESS.decide("Bearer alice-token-0123456789", false).allowed());
        assertTrue(ACCESS.decide("Bearer scrape-token-0123456789", false).allowed());
        assertTrue(ACCESS.decide("bearer scrape-token-0123456789", true).allowed());
    }

    @Test
    void anotherUserIsForbiddenAndNoTokenIsUnauthorized() {
        MetricsAccess.Verdict bob = ACCESS.decide("Bearer bob-token-0123456789", false);
        assertEquals(403, bob.status());
        assertEquals("forbidden", bob.code());
        for (String authorization : new String[] {null, "Basic Zm9vOmJhcg==", "Bearer nobody-0123456789", "Bearer "}) {
            MetricsAccess.Verdict refused = ACCESS.decide(authorization, true);
            assertEquals(401, refused.status(), authorization);
            assertEquals("unauthorized", refused.code());
        }
    }

    @Test
    void theScrapeTokenIsNoUsersToken() {
        assertTrue(TOKENS.userFor("scrape-token-0123456789").isEmpty());
    }

    @Test
    void withoutTokensTheLoopbackCallerIsTheOperatorAndNoOneElseIsServed() {
        MetricsAccess open = new MetricsAccess(TokenDirectory.parse(""), Set.of(), Optional.empty());
        assertTrue(open.decide(null, true).allowed());
        assertEquals(401, open.decide(null, false).status());
        assertEquals(401, open.decide("Bearer anything-at-all-long", false).status());
    }

    @Test
    void aShortScrapeTokenIsAMistakeOfConfiguration() {
        assertThrows(IllegalArgumentException.class,
                () -> new MetricsAccess(TOKENS, Set.of(), Optional.of("short")));
    }
}
