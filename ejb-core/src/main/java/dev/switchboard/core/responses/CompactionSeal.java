package dev.switchboard.core.responses;

import dev.switchboard.core.json.Jsons;
import jakarta.json.JsonArray;
import jakarta.json.JsonException;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import java.io.StringReader;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Optional;
import javax.crypto.Cipher;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;

/**
 * Seals the items a compaction stands for into its {@code encrypted_content} and opens them again:
 * AES-256-GCM under one compaction key ({@link CompactionKeyRing} holds the server's), with the user
 * as associated data — a client can neither read nor alter what it carries, and one user's
 * compaction does not open for another. The text is {@code base64url(version | nonce | ciphertext+tag)}.
 */
public final class CompactionSeal {

    private static final byte VERSION = 1;
    private static final int NONCE_BYTES = 12;
    private static final int TAG_BITS = 128;
    private static final SecureRandom RANDOM = new SecureRandom();

    private final SecretKey key;

    public CompactionSeal(SecretKey key) {
        this.key = key;
    }

    public String seal(String userKey, JsonArray items) {
        byte[] nonce = new byte[NONCE_BYTES];
        RANDOM.nextBytes(nonce);
        byte[] plain = Jsons.createObjectBuilder().add("items", items).build().toString().getBytes(StandardCharsets.UTF_8);
        try {
            Cipher cipher = cipher(Cipher.ENCRYPT_MODE, nonce, userKey);
            byte[] sealed = cipher.doFinal(plain);
            return Base64.getUrlEncoder().withoutPadding().encodeToString(ByteBuffer.allocate(1 + NONCE_BYTES + sealed.length)
                    .put(VERSION).put(nonce).put(sealed).array());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM is not available", e);
        }
    }

    /** The items sealed for this user; empty when the text was not sealed under this key for them, or was altered. */
    public Optional<JsonArray> open(String userKey, String sealed) {
        byte[] bytes;
        try {
            bytes = Base64.getUrlDecoder().decode(sealed);
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
        if (bytes.length <= 1 + NONCE_BYTES || bytes[0] != VERSION) {
            return Optional.empty();
        }
        byte[] nonce = new byte[NONCE_BYTES];
        System.arraycopy(bytes, 1, nonce, 0, NONCE_BYTES);
        try {
            byte[] plain = cipher(Cipher.DECRYPT_MODE, nonce, userKey).doFinal(bytes, 1 + NONCE_BYTES,
                    bytes.length - 1 - NONCE_BYTES);
            try (JsonReader reader = Jsons.createReader(new StringReader(new String(plain, StandardCharsets.UTF_8)))) {
                JsonObject content = reader.readObject();
                return content.get("items") instanceof JsonArray items ? Optional.of(items) : Optional.empty();
            }
        } catch (GeneralSecurityException | JsonException | ClassCastException e) {
            return Optional.empty(); // tag mismatch: altered, another key, or another user's
        }
    }

    private Cipher cipher(int mode, byte[] nonce, String userKey) throws GeneralSecurityException {
        Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
        cipher.init(mode, key, new GCMParameterSpec(TAG_BITS, nonce));
        cipher.updateAAD(userKey.getBytes(StandardCharsets.UTF_8));
        return cipher;
    }
}
