package dev.switchboard.ws;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class OriginPolicyTest {

    @Test
    void byDefaultOnlyLoopbackBrowsersAndNonBrowsers() {
        OriginPolicy policy = OriginPolicy.parse("");
        assertTrue(policy.allows(null));
        assertTrue(policy.allows("http://localhost:3000"));
        assertTrue(policy.allows("https://127.0.0.1"));
        assertTrue(policy.allows("http://[::1]:8080"));
        assertFalse(policy.allows("http://evil.example"));
        assertFalse(policy.allows("http://localhost.evil.example"));
        assertFalse(policy.allows("not a uri"));
    }

    @Test
    void configuredOriginsReplaceTheDefault() {
        OriginPolicy policy = OriginPolicy.parse("https://app.example.com, https://ops.example.com/");
        assertTrue(policy.allows("https://APP.example.com"));
        assertTrue(policy.allows("https://ops.example.com"));
        assertFalse(policy.allows("http://localhost:3000"));
        assertTrue(OriginPolicy.parse("*").allows("http://anything.example"));
    }

    @Test
    void queryTokenBecomesABearerCredential() {
        assertEquals("Bearer abc", SocketGate.authorization(null, " abc "));
        assertEquals("Bearer h", SocketGate.authorization("Bearer h", "abc"));
        assertNull(SocketGate.authorization(null, ""));
    }
}
