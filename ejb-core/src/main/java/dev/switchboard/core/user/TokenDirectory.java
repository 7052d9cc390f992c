package dev.switchboard.core.user;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * API tokens and the users they stand for, parsed from configuration of the form
 * {@code token1=alice,token2=bob}. With no token configured the server has a single user,
 * {@value #LOCAL_USER}, and serves loopback clients only.
 */
public final class TokenDirectory {

    public static final String LOCAL_USER = "local";
    private static final Pattern USER = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._@-]{0,127}");
    /** The shortest token taken: shorter ones are guessable. */
    static final int MIN_TOKEN_LENGTH = 16;

    private final Map<String, String> usersByToken;

    private TokenDirectory(Map<String, String> usersByToken) {
        this.usersByToken = usersByToken;
    }

    /** Parses the configured list; throws {@link IllegalArgumentException} naming the bad entry. */
    public static TokenDirectory parse(String config) {
        Map<String, String> map = new LinkedHashMap<>();
        if (config != null) {
            int index = 0;
            for (String entry : config.split(",")) {
                index++;
                String trimmed = entry.strip();
                if (trimmed.isEmpty()) {
                    continue;
                }
                int eq = trimmed.lastIndexOf('=');
                if (eq <= 0 || eq == trimmed.length() - 1) {
                    throw new IllegalArgumentException("switchboard.auth.tokens entry " + index
                            + " must look like <token>=<user>");
                }
                String token = trimmed.substring(0, eq).strip();
                String user = trimmed.substring(eq + 1).strip();
                if (token.length() < MIN_TOKEN_LENGTH) {
                    throw new IllegalArgumentException("switchboard.auth.tokens entry " + index
                            + ": tokens must have at least " + MIN_TOKEN_LENGTH + " characters");
                }
                if (!USER.matcher(user).matches()) {
                    throw new IllegalArgumentException("switchboard.auth.tokens entry " + index
                            + ": invalid user name '" + user + "'");
                }
                if (map.putIfAbsent(token, user) != null) {
                    throw new IllegalArgumentException("switchboard.auth.tokens entry " + index + ": duplicate token");
                }
            }
        }
        return new TokenDirectory(Map.copyOf(map));
    }

    /** True when no token is configured: single local user, loopback only. */
    public boolean isOpen() {
        return usersByToken.isEmpty();
    }

    /**
     * Decides who the caller is.
     *
     * @param authorization the Authorization header, or null
     * @param loopbackCaller whether the request came from a loopback address
     */
    public Authentication authenticate(String authorization, boolean loopbackCaller) {
        if (isOpen()) {
            return loopbackCaller ? Authentication.of(LOCAL_USER)
                    : Authentication.refused(Authentication.Refusal.REMOTE_WITHOUT_TOKENS);
        }
        Optional<String> token = bearerToken(authorization);
        if (token.isEmpty()) {
            return Authentication.refused(Authentication.Refusal.MISSING_TOKEN);
        }
        return userFor(token.get())
                .map(Authentication::of)
                .orElseGet(() -> Authentication.refused(Authentication.Refusal.UNKNOWN_TOKEN));
    }

    /** The token of an {@code Authorization: Bearer <token>} header; empty for none or another scheme. */
    static Optional<String> bearerToken(String authorization) {
        if (authorization == null || !authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return Optional.empty();
        }
        return Optional.of(authorization.substring(7).strip());
    }

    /** The user a bearer token stands for; compares in constant time per configured token. */
    public Optional<String> userFor(String token) {
        if (token == null) {
            return Optional.empty();
        }
        byte[] given = token.getBytes(StandardCharsets.UTF_8);
        String found = null;
        for (Map.Entry<String, String> e : usersByToken.entrySet()) {
            if (MessageDigest.isEqual(given, e.getKey().getBytes(StandardCharsets.UTF_8))) {
                found = e.getValue();
            }
        }
        return Optional.ofNullable(found);
    }
}
