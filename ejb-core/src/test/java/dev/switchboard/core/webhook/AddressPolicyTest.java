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

    @ParameterizedTest
    @ValueSource(strings = {"93.184.216.34", "8.8.8.8", "2606:4700::1111", "172.32.0.1", "100.128.0.1"})
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
