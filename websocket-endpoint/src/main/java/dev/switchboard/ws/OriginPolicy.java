package dev.switchboard.ws;

import java.net.URI;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Which browser origins may open the WebSocket (cross-site WebSocket hijacking defence). A
 * request without {@code Origin} is not from a browser and is allowed; otherwise the origin must
 * be listed ({@code scheme://host[:port]}, or {@code *} for any), or, with nothing configured, be
 * on a loopback host ({@code localhost}, {@code 127.0.0.1}, {@code [::1]}), any port.
 */
public final class OriginPolicy {

    private static final Set<String> LOOPBACK_HOSTS = Set.of("localhost", "127.0.0.1", "[::1]", "::1");

    private final Set<String> allowed;

    private OriginPolicy(Set<String> allowed) {
        this.allowed = allowed;
    }

    /** {@code config}: comma-separated origins; empty or null for the loopback default. */
    public static OriginPolicy parse(String config) {
        if (config == null || config.isBlank()) {
            return new OriginPolicy(Set.of());
        }
        return new OriginPolicy(java.util.Arrays.stream(config.split(","))
                .map(String::strip).filter(s -> !s.isEmpty())
                .map(OriginPolicy::normalise)
                .collect(Collectors.toUnmodifiableSet()));
    }

    public boolean allows(String origin) {
        if (origin == null || origin.isBlank()) {
            return true;
        }
        if (allowed.contains("*")) {
            return true;
        }
        if (allowed.isEmpty()) {
            try {
                String host = URI.create(origin.strip()).getHost();
                return host != null && LOOPBACK_HOSTS.contains(host.toLowerCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                return false;
            }
        }
        return allowed.contains(normalise(origin));
    }

    private static String normalise(String origin) {
        String o = origin.strip().toLowerCase(Locale.ROOT);
        return o.endsWith("/") ? o.substring(0, o.length() - 1) : o;
    }
}
