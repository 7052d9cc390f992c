package dev.switchboard.core.history;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;
import java.util.regex.Pattern;

/**
 * The secret of a transcript link: 32 random bytes, base64url without padding (43 characters), so
 * a link cannot be guessed; stored only as its SHA-256, so the database cannot open one.
 */
public final class ShareTokens {

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final Pattern FORM = Pattern.compile("[A-Za-z0-9_-]{43}");

    private ShareTokens() {
    }

    public static String fresh() {
        byte[] bytes = new byte[32];
        RANDOM.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    /** Whether {@code token} has the form {@link #fresh} gives; anything else names no link. */
    public static boolean wellFormed(String token) {
        return token != null && FORM.matcher(token).matches();
    }

    /** What is stored of a token: its SHA-256 in hex. */
    public static String hash(String token) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JVM", e);
        }
    }
}
