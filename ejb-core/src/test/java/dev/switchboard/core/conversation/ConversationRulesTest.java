package dev.switchboard.core.conversation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Who may resolve an approval, and the auth prompt's TTL (spec §8.4, §9; upstream session.rs,
 * §14.2). The queue of messages waiting for a turn is {@code TurnAdmission.queueing}'s.
 */
class ConversationRulesTest {

    @Test
    void theSourceChannelOrATrustedOneMayResolveAnApproval() {
        assertTrue(ApprovalAuthority.isApprovalAuthorized("telegram", "telegram"));
        assertFalse(ApprovalAuthority.isApprovalAuthorized("telegram", "http"));
        for (String trusted : ApprovalAuthority.TRUSTED_APPROVAL_CHANNELS) {
            assertTrue(ApprovalAuthority.isApprovalAuthorized("telegram", trusted), trusted);
        }
        assertFalse(ApprovalAuthority.isApprovalAuthorized(null, "web"), "unknown origin: fail closed");
        assertTrue(ApprovalAuthority.isApprovalAuthorized(ApprovalAuthority.BOOTSTRAP_SOURCE_CHANNEL, "signal"));
        assertFalse(ApprovalAuthority.isApprovalAuthorized("telegram", "my-wasm-channel"));
        assertFalse(ApprovalAuthority.isApprovalAuthorized("telegram", ApprovalAuthority.BOOTSTRAP_SOURCE_CHANNEL),
                "the bootstrap name earns no trust as a requester");
        assertTrue(ApprovalAuthority.isApprovalAuthorized(ApprovalAuthority.BOOTSTRAP_SOURCE_CHANNEL,
                ApprovalAuthority.BOOTSTRAP_SOURCE_CHANNEL));
    }

    @Test
    void anAuthPromptExpiresStrictlyAfterFiveMinutes() {
        Instant created = Instant.parse("2026-11-26T00:00:00Z");
        PendingAuth auth = new PendingAuth("github", created);
        assertFalse(auth.isExpired(created));
        assertFalse(auth.isExpired(created.plusSeconds(300)));
        assertTrue(auth.isExpired(created.plusSeconds(301)));
    }

    @Test
    void inputWithinTheTtlIsTheTokenAndACommandCancels() {
        Instant created = Instant.parse("2026-11-26T00:00:00Z");
        PendingAuth auth = new PendingAuth("github", created);
        java.time.Duration ttl = PendingAuth.TTL;
        assertEquals(PendingAuth.Interception.TOKEN, auth.intercept(Submissions.parse("ghp_abc"), created.plusSeconds(300), ttl));
        assertEquals(PendingAuth.Interception.TOKEN, auth.intercept(Submissions.parse("yes"), created, ttl),
                "a bare keyword is input: nothing else is pending");
        assertEquals(PendingAuth.Interception.CANCEL, auth.intercept(Submissions.parse("/undo"), created, ttl));
        assertEquals(PendingAuth.Interception.EXPIRED_INPUT,
                auth.intercept(Submissions.parse("ghp_abc"), created.plusSeconds(301), ttl));
        assertEquals(PendingAuth.Interception.EXPIRED, auth.intercept(Submissions.parse("/interrupt"), created.plusSeconds(301), ttl));
        assertEquals(PendingAuth.Interception.EXPIRED_INPUT,
                auth.intercept(Submissions.parse("x"), created.plusSeconds(6), java.time.Duration.ofSeconds(5)),
                "a configured TTL");
        assertEquals("Authentication for **github** expired. Please try again.", auth.expiredReply());
    }

    @Test
    void aTokenIsOneTrimmedWordOfPrintableCharacters() {
        assertEquals(Optional.of("ghp_abc.DEF-1"), PendingAuth.token("  ghp_abc.DEF-1\n"));
        assertEquals(Optional.empty(), PendingAuth.token("   "));
        assertEquals(Optional.empty(), PendingAuth.token("two words"));
        assertEquals(Optional.empty(), PendingAuth.token("tab\tinside"));
        assertEquals(Optional.empty(), PendingAuth.token("x".repeat(PendingAuth.MAX_TOKEN + 1)));
        assertEquals(PendingAuth.MAX_TOKEN, PendingAuth.token("x".repeat(PendingAuth.MAX_TOKEN)).orElseThrow().length());
    }
}
