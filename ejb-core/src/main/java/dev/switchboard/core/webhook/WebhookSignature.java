package dev.switchboard.core.webhook;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.List;
import java.util.StringJoiner;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Standard Webhooks signing (standardwebhooks.com): a secret is {@code whsec_} and the base64 of
 * its key; a signature is {@code v1,} and the base64 HMAC-SHA256 of {@code id.timestamp.body};
 * several are sent space-separated (a rotated secret's, while it lasts, beside the new one's), and
 * a receiver accepts the message when one of them verifies.
 */
public final class WebhookSignature {

    static final String PREFIX = "whsec_";
    private static final int KEY_BYTES = 32;
    private static final SecureRandom RANDOM = new SecureRandom();

    private WebhookSignature() {
    }

    /** A new secret: 256 random bits. */
    public static String newSecret() {
        byte[] key = new byte[KEY_BYTES];
        RANDOM.nextBytes(key);
        return PREFIX + Base64.getEncoder().encodeToString(key);
    }

    /** The {@code webhook-signature} header's value: one {@code v1,} entry per secret. */
    public static String header(List<String> secrets, String msgId, long timestampSeconds, String body) {
        StringJoiner header = new StringJoiner(" ");
        for (String secret : secrets) {
            header.add("v1," + sign(secret, msgId, timestampSeconds, body));
        }
        return header.toString();
    }

    static String sign(String secret, String msgId, long timestampSeconds, String body) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key(secret), "HmacSHA256"));
            byte[] signed = mac.doFinal((msgId + "." + timestampSeconds + "." + body).getBytes(StandardCharsets.UTF_8));
            return Base64.getEncoder().encodeToString(signed);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
        }
    }

    private static byte[] key(String secret) {
        String encoded = secret.startsWith(PREFIX) ? secret.substring(PREFIX.length()) : secret;
        return Base64.getDecoder().decode(encoded);
    }
}
