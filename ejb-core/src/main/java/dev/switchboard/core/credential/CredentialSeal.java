package dev.switchboard.core.credential;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Base64;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * Seals a secret for storage with AES-GCM (the JDK's own): a fresh 96-bit nonce per seal, and the
 * owner and name as associated data, so a sealed value copied to another user's or another
 * credential's row does not open. The stored text is {@code v1:} and the base64 of nonce and
 * ciphertext.
 */
public final class CredentialSeal {

    private static final String PREFIX = "v1:";
    private static final int NONCE_BYTES = 12;
    private static final int TAG_BITS = 128;
    private static final SecureRandom RANDOM = new SecureRandom();

    private final SecretKeySpec key;

    /** @param key 16, 24 or 32 bytes */
    public CredentialSeal(byte[] key) {
        if (key.length != 16 && key.length != 24 && key.length != 32) {
            throw new IllegalArgumentException("a credential key is 16, 24 or 32 bytes, not " + key.length);
        }
        this.key = new SecretKeySpec(key.clone(), "AES");
    }

    /** A new random 256-bit key. */
    public static byte[] newKey() {
        byte[] key = new byte[32];
        RANDOM.nextBytes(key);
        return key;
    }

    public String seal(String owner, String name, String secret) {
        byte[] nonce = new byte[NONCE_BYTES];
        RANDOM.nextBytes(nonce);
        try {
            Cipher cipher = cipher(Cipher.ENCRYPT_MODE, nonce, owner, name);
            byte[] sealed = cipher.doFinal(secret.getBytes(StandardCharsets.UTF_8));
            return PREFIX + Base64.getEncoder().encodeToString(ByteBuffer.allocate(nonce.length + sealed.length)
                    .put(nonce).put(sealed).array());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("sealing a credential failed: " + e.getClass().getSimpleName(), e);
        }
    }

    /** @throws IllegalArgumentException when {@code sealed} was not sealed by this key for this owner and name */
    public String open(String owner, String name, String sealed) {
        if (sealed == null || !sealed.startsWith(PREFIX)) {
            throw new IllegalArgumentException("not a sealed credential");
        }
        try {
            byte[] bytes = Base64.getDecoder().decode(sealed.substring(PREFIX.length()));
            if (bytes.length <= NONCE_BYTES) {
                throw new IllegalArgumentException("not a sealed credential");
            }
            byte[] nonce = java.util.Arrays.copyOf(bytes, NONCE_BYTES);
            Cipher cipher = cipher(Cipher.DECRYPT_MODE, nonce, owner, name);
            return new String(cipher.doFinal(bytes, NONCE_BYTES, bytes.length - NONCE_BYTES), StandardCharsets.UTF_8);
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            throw new IllegalArgumentException("the credential does not open with this key for its owner and name");
        }
    }

    private Cipher cipher(int mode, byte[] nonce, String owner, String name) throws GeneralSecurityException {
        Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
        cipher.init(mode, key, new GCMParameterSpec(TAG_BITS, nonce));
        cipher.updateAAD((owner + '\u0000' + name).getBytes(StandardCharsets.UTF_8));
        return cipher;
    }
}
