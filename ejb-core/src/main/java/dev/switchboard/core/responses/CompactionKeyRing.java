package dev.switchboard.core.responses;

import jakarta.json.JsonArray;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import javax.crypto.SecretKey;
import javax.crypto.spec.SecretKeySpec;

/**
 * The keys that seal and open compactions, newest first: the newest seals, every one opens. A
 * sealed compaction names no key — GCM's tag tells whether a key is the one — so the format stays
 * that of a single {@link CompactionSeal} and rotating loses nothing: a new key goes first, the old
 * ones stay after it and keep opening the compactions clients still hold.
 */
public final class CompactionKeyRing {

    /** AES-256. */
    static final int KEY_BYTES = 32;
    /** The configured list; named in every complaint about it. */
    static final String PROPERTY = "switchboard.responses.compaction-key";
    private static final SecureRandom RANDOM = new SecureRandom();

    private final List<SecretKey> keys;
    private final List<CompactionSeal> seals;

    /** At least one key, newest first; a key given twice counts once, at its first place. */
    public CompactionKeyRing(List<SecretKey> newestFirst) {
        this.keys = List.copyOf(new LinkedHashSet<>(newestFirst)); // a SecretKeySpec is equal to another with the same bytes
        if (keys.isEmpty()) {
            throw new IllegalArgumentException("a compaction key ring needs a key");
        }
        this.seals = keys.stream().map(CompactionSeal::new).toList();
    }

    /**
     * The configured ring: {@value #PROPERTY} is a comma-separated list of 32-byte keys in base64,
     * newest first, so every instance of a deployment seals with the first and opens with all.
     *
     * @throws IllegalArgumentException naming the property and the key's place in it, never its text
     */
    public static CompactionKeyRing configured(String value) {
        String[] entries = value.split(",", -1);
        List<SecretKey> keys = new ArrayList<>();
        for (int i = 0; i < entries.length; i++) {
            keys.add(key(entries[i], PROPERTY + (entries.length == 1 ? "" : " (key " + (i + 1) + " of " + entries.length
                    + ", newest first)")));
        }
        return new CompactionKeyRing(keys);
    }

    /** This ring followed by {@code older}'s keys, which only open here (a key this ring has keeps its place). */
    public CompactionKeyRing alsoOpening(CompactionKeyRing older) {
        List<SecretKey> all = new ArrayList<>(keys);
        all.addAll(older.keys);
        return new CompactionKeyRing(all);
    }

    /** The items sealed for this user under the newest key. */
    public String seal(String userKey, JsonArray items) {
        return seals.get(0).seal(userKey, items);
    }

    /** The items sealed for this user under any of the keys; empty when none opens it (altered, another user's, an unknown key). */
    public Optional<JsonArray> open(String userKey, String sealed) {
        for (CompactionSeal seal : seals) {
            Optional<JsonArray> items = seal.open(userKey, sealed);
            if (items.isPresent()) {
                return items;
            }
        }
        return Optional.empty();
    }

    /**
     * A key from its base64 text (surrounding blanks ignored).
     *
     * @throws IllegalArgumentException naming {@code where} it came from; the text, a secret, is never in it
     */
    static SecretKey key(String base64, String where) {
        byte[] bytes;
        try {
            bytes = Base64.getDecoder().decode(base64.strip());
        } catch (IllegalArgumentException notBase64) {
            bytes = new byte[0]; // its message quotes the offending character: not repeated
        }
        if (bytes.length != KEY_BYTES) {
            throw new IllegalArgumentException(where + " is not " + KEY_BYTES + " bytes in base64");
        }
        return new SecretKeySpec(bytes, "AES");
    }

    static SecretKey newKey() {
        byte[] bytes = new byte[KEY_BYTES];
        RANDOM.nextBytes(bytes);
        return new SecretKeySpec(bytes, "AES");
    }

    static String base64(SecretKey key) {
        return Base64.getEncoder().encodeToString(key.getEncoded());
    }
}
