package dev.switchboard.core.webhook;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;

/**
 * An address block in CIDR notation ({@code 10.0.0.0/8}, {@code fd00::/8}, or one address). The
 * JDK classifies addresses but has no blocks; matching one is a prefix compare of the bytes, too
 * small to take a library for.
 */
public record Network(byte[] prefix, int bits) {

    /** @throws IllegalArgumentException when {@code cidr} is not an IP literal with an optional /bits */
    public static Network parse(String cidr) {
        String text = cidr.strip();
        int slash = text.indexOf('/');
        String address = slash < 0 ? text : text.substring(0, slash);
        if (address.isEmpty() || !(address.indexOf(':') >= 0 || address.matches("[0-9.]+"))) {
            throw new IllegalArgumentException("not an IP address block: " + cidr);
        }
        byte[] bytes;
        try {
            bytes = InetAddress.getByName(address).getAddress(); // a literal: no lookup
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("not an IP address block: " + cidr, e);
        }
        int bits = bytes.length * 8;
        if (slash >= 0) {
            try {
                bits = Integer.parseInt(text.substring(slash + 1));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("not an IP address block: " + cidr, e);
            }
            if (bits < 0 || bits > bytes.length * 8) {
                throw new IllegalArgumentException("not an IP address block: " + cidr);
            }
        }
        return new Network(bytes, bits);
    }

    /** Blocks separated by commas or spaces; none for a blank text. */
    public static List<Network> parseList(String cidrs) {
        List<Network> networks = new ArrayList<>();
        if (cidrs != null) {
            for (String part : cidrs.split("[,\\s]+")) {
                if (!part.isBlank()) {
                    networks.add(parse(part));
                }
            }
        }
        return networks;
    }

    public boolean contains(InetAddress address) {
        byte[] a = address.getAddress();
        if (a.length != prefix.length) {
            return false;
        }
        int full = bits / 8;
        for (int i = 0; i < full; i++) {
            if (a[i] != prefix[i]) {
                return false;
            }
        }
        int rest = bits % 8;
        if (rest == 0) {
            return true;
        }
        int mask = 0xff << (8 - rest) & 0xff;
        return (a[full] & mask) == (prefix[full] & mask);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Network n && n.bits == bits && java.util.Arrays.equals(n.prefix, prefix);
    }

    @Override
    public int hashCode() {
        return 31 * java.util.Arrays.hashCode(prefix) + bits;
    }

    @Override
    public String toString() {
        try {
            return InetAddress.getByAddress(prefix).getHostAddress() + "/" + bits;
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }
}
