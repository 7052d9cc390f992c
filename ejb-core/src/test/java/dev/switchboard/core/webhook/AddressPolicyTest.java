package dev.switchboard.core.webhook;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class AddressPolicyTest {

    private static final AddressPolicy STRICT = new AddressPolicy(List.of());

    private static InetAddress ip(String literal) {
        try {
            return InetAddress.getByName(literal);
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"127.0.0.1", "10.1.2.3", "172.16.0.1", "192.168.1.1", "169.254.169.254", "100.64.0.1",
            "0.0.0.0", "224.0.0.1", "255.255.255.255", "198.18.0.1", "::1", "fe80::1", "fd00::1", "::ffff:10.0.0.1",
            "::ffff:127.0.0.1", "::"})
    void internalAddressesAreRefusedByDefault(String literal) {
        assertTrue(AddressPolicy.isInternal(ip(literal)), literal);
        assertNotNull(STRICT.refusal(URI.create("https://hooks.example.com/x"), List.of(ip(literal))), literal);
    }

    /**
     * What a sweep over the four doors found accepted (issue 49): IPv6 forms that stand for loopback,
     * metadata or private addresses — IPv4-compatible, NAT64 (well-known and local-use), 6to4 of
     * loopback and of the metadata address, Teredo, discard — and IPv4 blocks of IANA's registry the
     * JDK does not classify, each refused with an allowed list that does not name it.
     */
    @ParameterizedTest
    @ValueSource(strings = {"::127.0.0.1", "::7f00:1", "::a9fe:a9fe", "64:ff9b::7f00:1", "64:ff9b::808:808",
            "64:ff9b:1::7f00:1", "2002:7f00:1::", "2002:a9fe:a9fe::", "2002:808:808::1", "2001:0:4136:e378:8000:63bf:3fff:fdd2",
            "2001::1", "100::1", "2001:db8::1", "3fff::1", "5f00::1", "2620:4f:8000::1", "ff02::1",
            "192.88.99.1", "192.0.0.170", "192.31.196.1", "192.52.193.1", "192.175.48.1", "198.51.100.7", "203.0.113.9",
            "192.0.2.1", "240.0.0.1", "100.127.255.254", "0.1.2.3"})
    void everySpecialPurposeBlockAndEveryAddressEmbeddingOneIsRefused(String literal) {
        assertTrue(AddressPolicy.isInternal(ip(literal)), literal);
        assertNotNull(STRICT.refusal(URI.create("https://hooks.example.com/x"), List.of(ip(literal))), literal);
    }

    /**
     * A URL's host written as a number in a form that resolvers and the JVM read differently is
     * refused as it is registered: {@code 0177.0.0.1} is 127.0.0.1 to curl and 177.0.0.1 to the JVM.
     * (Forms whose last label is not a name, {@code 0x7f.0.0.1}, are hostless to {@link URI} already.)
     */
    @ParameterizedTest
    @ValueSource(strings = {"https://0177.0.0.1/", "https://0x7f.0.0.1/", "https://0x7f000001/", "https://2130706433/",
            "https://127.1/", "https://127.0.0.1./", "https://010.0.0.1/", "https://1.2.3/", "https://0x/",
            "https://example.0x10/", "https://example.123/"})
    void ambiguousNumericHostsAreRefused(String url) {
        WebhookException e = assertThrows(WebhookException.class, () -> AddressPolicy.parse(url));
        assertEquals("invalid_url", e.code(), url);
    }

    @ParameterizedTest
    @ValueSource(strings = {"0177.0.0.1", "0x7f000001", "2130706433", "127.1", "127.0.0.1.", "010.0.0.1", "1.2.3",
            "0x", "example.0x10", "example.123", "1.2.3.4.5"})
    void aHostThatEndsInANumberMustBeFourDecimalNumbers(String host) {
        assertTrue(AddressPolicy.ambiguousNumericHost(host), host);
        WebhookException e = assertThrows(WebhookException.class, () -> AddressPolicy.parse("https://0177.0.0.1/"));
        assertTrue(e.getMessage().contains("four decimal numbers"), e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"https://93.184.216.34/x", "https://hooks.example.com/x", "https://[2606:4700::1111]/x",
            "https://cafe.be/", "https://deadbeef.com/", "https://1.2.3.4.example.com/"})
    void hostsInTheirOneFormAreKept(String url) {
        assertEquals(URI.create(url), AddressPolicy.parse(url));
    }

    @ParameterizedTest
    @ValueSource(strings = {"93.184.216.34", "8.8.8.8", "2606:4700::1111", "172.32.0.1", "100.128.0.1",
            "2a00:1450:4001:82a::200e", "::ffff:8.8.8.8"})
    void publicAddressesAreAllowedOverHttps(String literal) {
        assertFalse(AddressPolicy.isInternal(ip(literal)), literal);
        assertNull(STRICT.refusal(URI.create("https://hooks.example.com/x"), List.of(ip(literal))));
    }

    @Test
    void oneInternalAddressAmongPublicOnesRefusesTheHost() {
        String refusal = STRICT.refusal(URI.create("https://mixed.example.com/"), List.of(ip("8.8.8.8"), ip("10.0.0.1")));
        assertNotNull(refusal);
        assertTrue(refusal.contains("10.0.0.1"), refusal);
    }

    @Test
    void plainHttpGoesOnlyToAllowedNetworks() {
        assertNotNull(STRICT.refusal(URI.create("http://hooks.example.com/"), List.of(ip("8.8.8.8"))));
        AddressPolicy loopback = new AddressPolicy(Network.parseList("127.0.0.1/32, ::1"));
        assertNull(loopback.refusal(URI.create("http://127.0.0.1:8080/"), List.of(ip("127.0.0.1"))));
        assertNotNull(loopback.refusal(URI.create("http://127.0.0.2:8080/"), List.of(ip("127.0.0.2"))),
                "an allowed network is that network only");
        assertNotNull(loopback.refusal(URI.create("https://x.test/"), List.of(ip("10.0.0.1"))));
    }

    @Test
    void networksMatchByPrefix() {
        Network n = Network.parse("10.20.0.0/14");
        assertTrue(n.contains(ip("10.23.255.255")));
        assertFalse(n.contains(ip("10.24.0.0")));
        assertFalse(n.contains(ip("::1")));
        assertTrue(Network.parse("fd00::/8").contains(ip("fd12::3")));
        assertEquals("10.20.0.0/14", n.toString());
        assertThrows(IllegalArgumentException.class, () -> Network.parse("10.0.0.0/33"));
        assertThrows(IllegalArgumentException.class, () -> Network.parse("example.com"));
        assertThrows(IllegalArgumentException.class, () -> Network.parse("10.0.0.0/x"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "ftp://example.com/", "file:///etc/passwd", "https://user:pw@example.com/",
            "https://example.com/#frag", "https://", "not a url", "javascript:alert(1)", "//example.com/x"})
    void urlsThatAreNoEndpointAreInvalid(String url) {
        WebhookException e = assertThrows(WebhookException.class, () -> AddressPolicy.parse(url));
        assertEquals("invalid_url", e.code());
        assertEquals(400, e.status());
    }

    @Test
    void anHttpsUrlIsKept() {
        assertEquals("https://hooks.example.com:8443/a?b=c", AddressPolicy.parse(" https://hooks.example.com:8443/a?b=c ").toString());
    }
}
