package dev.switchboard.core.webhook;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Which URLs an endpoint may have, and which addresses a delivery may reach. A URL is {@code https}
 * (or {@code http} to an allowed network) without credentials or fragment. Every address its host
 * resolves to must be public — not loopback, private, link-local (the cloud metadata address),
 * carrier-grade NAT, unique-local, multicast or otherwise reserved — unless it lies in a network
 * the operator allowed. Checked at registration and again before every attempt, on the addresses
 * of that moment: a name that resolves elsewhere later is refused then.
 */
public final class AddressPolicy {

    static final int MAX_URL_LENGTH = 2048;

    /** Blocks the JDK's classification does not cover: none of them is a public destination. */
    private static final List<Network> RESERVED = List.of(
            Network.parse("0.0.0.0/8"), Network.parse("100.64.0.0/10"), Network.parse("192.0.0.0/24"),
            Network.parse("192.0.2.0/24"), Network.parse("198.18.0.0/15"), Network.parse("198.51.100.0/24"),
            Network.parse("203.0.113.0/24"), Network.parse("240.0.0.0/4"), Network.parse("fc00::/7"),
            Network.parse("64:ff9b::/96"), Network.parse("2001:db8::/32"), Network.parse("::/128"));

    private final List<Network> allowed;

    public AddressPolicy(List<Network> allowed) {
        this.allowed = List.copyOf(allowed);
    }

    /** The URL as an endpoint stores it; {@code invalid_url} when it is not one it may have. */
    public static URI parse(String url) {
        if (url == null || url.isBlank()) {
            throw WebhookException.invalid("invalid_url", "url is required");
        }
        if (url.length() > MAX_URL_LENGTH) {
            throw WebhookException.invalid("invalid_url", "url is longer than " + MAX_URL_LENGTH + " characters");
        }
        URI uri;
        try {
            uri = new URI(url.strip());
        } catch (URISyntaxException e) {
            throw WebhookException.invalid("invalid_url", "url is not a valid URL: " + e.getReason());
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("https") && !scheme.equals("http")) {
            throw WebhookException.invalid("invalid_url", "url must be an https (or allowed http) URL");
        }
        if (uri.getHost() == null || uri.getRawAuthority() == null) {
            throw WebhookException.invalid("invalid_url", "url has no host");
        }
        if (uri.getRawUserInfo() != null) {
            throw WebhookException.invalid("invalid_url", "url must not carry credentials; the signature authenticates");
        }
        if (uri.getRawFragment() != null) {
            throw WebhookException.invalid("invalid_url", "url must not have a fragment");
        }
        return uri;
    }

    /**
     * Why {@code uri} may not be called now: its host resolved at this moment (the JVM's lookup, whose
     * answer the HTTP client then reuses from the JVM's cache) and checked by {@link #refusal(URI, List)};
     * a host that does not resolve is refused too. Null when it may.
     */
    public String refusalNow(URI uri) {
        try {
            return refusal(uri, Arrays.asList(InetAddress.getAllByName(uri.getHost())));
        } catch (UnknownHostException e) {
            return "the host " + uri.getHost() + " does not resolve";
        }
    }

    /**
     * Why {@code uri} may not be called at {@code addresses} (what its host resolves to now), or
     * null when it may: every address is public or allowed, and plain http goes only to allowed networks.
     */
    public String refusal(URI uri, List<InetAddress> addresses) {
        if (addresses.isEmpty()) {
            return "the host " + uri.getHost() + " resolves to no address";
        }
        boolean allAllowed = true;
        for (InetAddress address : addresses) {
            boolean isAllowed = isAllowed(address);
            allAllowed &= isAllowed;
            if (!isAllowed && isInternal(address)) {
                return "the host " + uri.getHost() + " resolves to " + address.getHostAddress()
                        + ", a private, loopback, link-local or reserved address, which is not in the allowed networks";
            }
        }
        if (!"https".equalsIgnoreCase(uri.getScheme()) && !allAllowed) {
            return "plain http is allowed only to the allowed networks; use https";
        }
        return null;
    }

    private boolean isAllowed(InetAddress address) {
        InetAddress a = unmapped(address);
        for (Network n : allowed) {
            if (n.contains(a) || n.contains(address)) {
                return true;
            }
        }
        return false;
    }

    /** True for any address that is not a public destination. */
    static boolean isInternal(InetAddress address) {
        InetAddress a = unmapped(address);
        if (a.isLoopbackAddress() || a.isSiteLocalAddress() || a.isLinkLocalAddress() || a.isAnyLocalAddress()
                || a.isMulticastAddress()) {
            return true;
        }
        if (a instanceof Inet4Address && (a.getAddress()[0] & 0xff) == 255) {
            return true; // broadcast
        }
        for (Network n : RESERVED) {
            if (n.contains(a)) {
                return true;
            }
        }
        return false;
    }

    /** An IPv4-mapped IPv6 address ({@code ::ffff:10.0.0.1}) is the IPv4 address it maps. */
    private static InetAddress unmapped(InetAddress address) {
        if (address instanceof Inet6Address) {
            byte[] b = address.getAddress();
            boolean mapped = true;
            for (int i = 0; i < 10; i++) {
                mapped &= b[i] == 0;
            }
            if (mapped && (b[10] & 0xff) == 0xff && (b[11] & 0xff) == 0xff) {
                try {
                    return InetAddress.getByAddress(new byte[] {b[12], b[13], b[14], b[15]});
                } catch (java.net.UnknownHostException e) {
                    throw new IllegalStateException(e);
                }
            }
        }
        return address;
    }
}
