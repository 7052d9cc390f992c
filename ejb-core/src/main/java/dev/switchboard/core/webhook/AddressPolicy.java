package dev.switchboard.core.webhook;

import com.google.common.net.InetAddresses;
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
 * (or {@code http} to an allowed network) without credentials or fragment, and its host is a name
 * or an IP literal in its one unambiguous form (dotted decimal without leading zeros, or IPv6 in
 * brackets): {@code 0177.0.0.1}, {@code 127.1} or {@code 0x7f000001} mean 127.0.0.1 to resolvers and
 * curl but 177.0.0.1 or a name to the JVM, so they are refused rather than guessed. Every address
 * its host resolves to must be public — outside every block of IANA's IPv4 and IPv6 special-purpose
 * address registries (loopback, private, link-local with the cloud metadata address, shared,
 * documentation, benchmarking, translation and transition prefixes…), outside multicast, and for
 * IPv6 inside global unicast ({@code 2000::/3}); an IPv6 address that embeds an IPv4 one (mapped,
 * compatible, 6to4, Teredo, NAT64) is judged by what it embeds too — unless it lies in a network the
 * operator allowed. Checked at registration and again before every attempt, on the addresses of
 * that moment: a name that resolves elsewhere later is refused then.
 */
public final class AddressPolicy {

    static final int MAX_URL_LENGTH = 2048;

    /**
     * IANA's IPv4 Special-Purpose Address Registry (RFC 6890 and its updates), the limited broadcast
     * address, and multicast (its own registry): none of them is a destination for a webhook, those
     * the registry calls globally reachable (AS112, AMT) included.
     */
    private static final List<Network> SPECIAL_IPV4 = Network.parseList("0.0.0.0/8 10.0.0.0/8 100.64.0.0/10"
            + " 127.0.0.0/8 169.254.0.0/16 172.16.0.0/12 192.0.0.0/24 192.0.2.0/24 192.31.196.0/24 192.52.193.0/24"
            + " 192.88.99.0/24 192.168.0.0/16 192.175.48.0/24 198.18.0.0/15 198.51.100.0/24 203.0.113.0/24"
            + " 224.0.0.0/4 240.0.0.0/4 255.255.255.255/32");

    /**
     * IANA's IPv6 Special-Purpose Address Registry inside global unicast (everything outside
     * {@code 2000::/3} is refused as a whole: loopback, unspecified, mapped and compatible forms,
     * discard, NAT64, unique-local, link-local, multicast): IETF protocol assignments (Teredo,
     * benchmarking, ORCHID, AMT, AS112 among them), documentation, 6to4, AS112, SRv6 SIDs.
     */
    private static final List<Network> SPECIAL_IPV6 = Network.parseList("2001::/23 2001:db8::/32 2002::/16"
            + " 2620:4f:8000::/48 3fff::/20 5f00::/16");

    private static final Network GLOBAL_UNICAST = Network.parse("2000::/3");

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
        if (ambiguousNumericHost(uri.getHost())) {
            throw WebhookException.invalid("invalid_url", "url's host " + uri.getHost() + " is a number in a form that"
                    + " clients read differently (octal, hexadecimal, shortened or with leading zeros); write the"
                    + " address as four decimal numbers, or use a name");
        }
        return uri;
    }

    /**
     * Whether {@code host} is read as an IPv4 address by URL parsers (its last label is a number,
     * decimal or {@code 0x} hexadecimal, as the WHATWG URL standard and curl decide) without being
     * one in the strict dotted-decimal form.
     */
    static boolean ambiguousNumericHost(String host) {
        if (host.startsWith("[")) {
            return false; // an IPv6 literal: one form
        }
        String name = host.endsWith(".") ? host.substring(0, host.length() - 1) : host;
        String last = name.substring(name.lastIndexOf('.') + 1);
        boolean numeric = last.matches("[0-9]+") || last.matches("(?i)0x[0-9a-f]*");
        return numeric && (host.endsWith(".") || !InetAddresses.isInetAddress(name)
                || !(InetAddresses.forString(name) instanceof Inet4Address));
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
                        + ", a loopback, private, link-local or other special-purpose address, which is not in the allowed networks";
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

    /** True for any address that is not a public destination (see the class comment). */
    static boolean isInternal(InetAddress address) {
        InetAddress a = unmapped(address);
        if (a instanceof Inet4Address v4) {
            return in(SPECIAL_IPV4, v4);
        }
        Inet6Address v6 = (Inet6Address) a;
        if (!GLOBAL_UNICAST.contains(v6) || in(SPECIAL_IPV6, v6)) {
            return true;
        }
        return InetAddresses.hasEmbeddedIPv4ClientAddress(v6)
                && in(SPECIAL_IPV4, InetAddresses.getEmbeddedIPv4ClientAddress(v6));
    }

    private static boolean in(List<Network> blocks, InetAddress address) {
        for (Network n : blocks) {
            if (n.contains(address)) {
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
