package dev.switchboard.core.responses;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.JsonArray;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import javax.crypto.SecretKey;
import org.junit.jupiter.api.Test;

/** The newest key seals, every key opens; the configured list is newest first and never shown in a complaint. */
class CompactionKeyRingTest {

    private static final JsonArray ITEMS = Compactions.summaryItems("the user lives in Oslo");
    private final SecretKey k1 = CompactionKeyRing.newKey();
    private final SecretKey k2 = CompactionKeyRing.newKey();

    private static CompactionKeyRing ring(SecretKey... newestFirst) {
        return new CompactionKeyRing(List.of(newestFirst));
    }

    @Test
    void aSealMadeBeforeARotationStillOpensAfterItAndNewSealsUseTheNewKey() {
        String before = ring(k1).seal("alice", ITEMS);
        CompactionKeyRing rotated = ring(k2, k1);
        assertEquals(Optional.of(ITEMS), rotated.open("alice", before));
        String after = rotated.seal("alice", ITEMS);
        assertEquals(Optional.of(ITEMS), ring(k2).open("alice", after), "sealed with the new key");
        assertEquals(Optional.empty(), ring(k1).open("alice", after), "the old key alone does not open it");
        assertEquals(Optional.of(ITEMS), rotated.open("alice", after));
    }

    @Test
    void noKeyOpensAnotherUsersAnAlteredOrAnUnknownKeysSeal() {
        CompactionKeyRing ring = ring(k2, k1);
        String older = ring(k1).seal("alice", ITEMS);
        assertEquals(Optional.empty(), ring.open("bob", older));
        assertEquals(Optional.empty(), ring.open("bob", ring.seal("alice", ITEMS)));
        byte[] bytes = Base64.getUrlDecoder().decode(older);
        bytes[bytes.length - 1] ^= 1;
        assertEquals(Optional.empty(), ring.open("alice", Base64.getUrlEncoder().withoutPadding().encodeToString(bytes)));
        assertEquals(Optional.empty(), ring.open("alice", ring(CompactionKeyRing.newKey()).seal("alice", ITEMS)));
        assertEquals(Optional.empty(), ring.open("alice", "not a compaction"));
    }

    @Test
    void theConfiguredListIsNewestFirstAndOneKeyIsAListToo() {
        CompactionKeyRing configured = CompactionKeyRing.configured(" " + CompactionKeyRing.base64(k2) + " ,"
                + CompactionKeyRing.base64(k1) + "\n");
        assertEquals(Optional.of(ITEMS), configured.open("alice", ring(k1).seal("alice", ITEMS)));
        assertEquals(Optional.of(ITEMS), ring(k2).open("alice", configured.seal("alice", ITEMS)), "the first seals");
        CompactionKeyRing single = CompactionKeyRing.configured(CompactionKeyRing.base64(k1));
        assertEquals(Optional.of(ITEMS), ring(k1).open("alice", single.seal("alice", ITEMS)));
    }

    @Test
    void aBadConfiguredKeyIsNamedByItsPlaceNeverShown() {
        String shortKey = Base64.getEncoder().encodeToString("sixteen byte key".getBytes());
        String notBase64 = "s3cret!not*base64";
        String good = CompactionKeyRing.base64(k1);
        assertComplaint("switchboard.responses.compaction-key is not 32 bytes in base64", shortKey, shortKey);
        assertComplaint("switchboard.responses.compaction-key (key 2 of 2, newest first) is not 32 bytes in base64",
                good + "," + notBase64, notBase64);
        assertComplaint("switchboard.responses.compaction-key (key 2 of 2, newest first) is not 32 bytes in base64",
                good + ",", good);
        assertComplaint("switchboard.responses.compaction-key (key 1 of 2, newest first) is not 32 bytes in base64",
                good.substring(1) + "," + good, good.substring(1));
    }

    private static void assertComplaint(String expected, String value, String secret) {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> CompactionKeyRing.configured(value));
        assertEquals(expected, refused.getMessage());
        assertFalse(refused.getMessage().contains(secret), "the key is not shown");
    }

    @Test
    void olderKeysOnlyOpenAndAKeyGivenTwiceKeepsItsFirstPlace() {
        CompactionKeyRing withFile = ring(k2).alsoOpening(ring(k1, k2));
        assertEquals(Optional.of(ITEMS), ring(k2).open("alice", withFile.seal("alice", ITEMS)), "this ring's newest seals");
        assertEquals(Optional.of(ITEMS), withFile.open("alice", ring(k1).seal("alice", ITEMS)));
        assertTrue(ring(k1, k1).open("alice", ring(k1).seal("alice", ITEMS)).isPresent());
        assertThrows(IllegalArgumentException.class, () -> new CompactionKeyRing(List.of()));
    }
}
