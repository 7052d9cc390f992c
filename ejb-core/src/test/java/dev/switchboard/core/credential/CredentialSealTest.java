package dev.switchboard.core.credential;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.junit.jupiter.api.Test;

/** A sealed credential opens only with its key, for its owner and name, untouched; it never shows the secret. */
class CredentialSealTest {

    private final CredentialSeal seal = new CredentialSeal(CredentialSeal.newKey());

    @Test
    void aSealedSecretOpensForItsOwnerAndName() {
        String sealed = seal.seal("alice", "github", "ghp_s3cret-token");
        assertEquals("ghp_s3cret-token", seal.open("alice", "github", sealed));
        assertTrue(sealed.startsWith("v1:"));
        assertFalse(sealed.contains("s3cret"), sealed);
        assertFalse(new String(Base64.getDecoder().decode(sealed.substring(3)), StandardCharsets.ISO_8859_1)
                .contains("s3cret"), "not even in the decoded bytes");
    }

    @Test
    void everySealIsDifferent() {
        assertNotEquals(seal.seal("alice", "github", "x"), seal.seal("alice", "github", "x"));
    }

    @Test
    void itDoesNotOpenForAnotherOwnerNameOrKeyOrWhenTouched() {
        String sealed = seal.seal("alice", "github", "secret");
        assertThrows(IllegalArgumentException.class, () -> seal.open("bob", "github", sealed));
        assertThrows(IllegalArgumentException.class, () -> seal.open("alice", "gitlab", sealed));
        assertThrows(IllegalArgumentException.class,
                () -> new CredentialSeal(CredentialSeal.newKey()).open("alice", "github", sealed));
        byte[] bytes = Base64.getDecoder().decode(sealed.substring(3));
        bytes[bytes.length - 1] ^= 1;
        String touched = "v1:" + Base64.getEncoder().encodeToString(bytes);
        assertThrows(IllegalArgumentException.class, () -> seal.open("alice", "github", touched));
        assertThrows(IllegalArgumentException.class, () -> seal.open("alice", "github", "secret"));
        assertThrows(IllegalArgumentException.class, () -> seal.open("alice", "github", "v1:AAAA"));
    }

    @Test
    void aKeyIsSixteenTwentyFourOrThirtyTwoBytes() {
        assertThrows(IllegalArgumentException.class, () -> new CredentialSeal(new byte[15]));
        new CredentialSeal(new byte[16]);
        new CredentialSeal(new byte[24]);
    }
}
