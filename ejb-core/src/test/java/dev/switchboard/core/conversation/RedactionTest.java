package dev.switchboard.core.conversation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.io.StringReader;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** What an approval request shows of a call's parameters (spec §8.5). */
class RedactionTest {

    private static JsonObject json(String text) {
        return Json.createReader(new StringReader(text)).readObject();
    }

    @Test
    void theToolsSensitiveKeysAndWellKnownSecretsAreRedactedAtAnyDepth() {
        JsonObject raw = json("{\"url\":\"https://x\",\"pin\":\"1234\",\"Api-Key\":\"k\","
                + "\"headers\":{\"Authorization\":\"Bearer t\",\"accept\":\"json\"},"
                + "\"accounts\":[{\"user\":\"u\",\"password\":\"p\"}]}");
        JsonObject shown = Redaction.DEFAULT.parameters(raw, Set.of("pin"));
        assertEquals(json("{\"url\":\"https://x\",\"pin\":\"[REDACTED]\",\"Api-Key\":\"[REDACTED]\","
                + "\"headers\":{\"Authorization\":\"[REDACTED]\",\"accept\":\"json\"},"
                + "\"accounts\":[{\"user\":\"u\",\"password\":\"[REDACTED]\"}]}"), shown);
        assertEquals("1234", raw.getString("pin"), "the raw parameters are untouched: execution uses them");
    }

    @Test
    void nothingSensitiveMeansNothingChanged() {
        JsonObject raw = json("{\"city\":\"Oslo\",\"days\":3,\"tags\":[\"a\"]}");
        assertEquals(raw, Redaction.DEFAULT.parameters(raw, Set.of()));
    }

    @Test
    void aConfiguredNameIsSensitiveAsAWholeWordInAnySpelling() {
        Redaction redaction = Redaction.of("token, api_key");
        for (String name : List.of("token", "github_token", "X-Token", "refreshToken", "apiKey", "x_api_key", "API KEY")) {
            assertTrue(redaction.isSensitive(name, Set.of()), name);
        }
        for (String name : List.of("tokens", "tokenizer", "password", "key")) {
            assertFalse(redaction.isSensitive(name, Set.of()), name);
        }
        assertTrue(Redaction.DEFAULT.isSensitive("db_password", Set.of()));
        assertTrue(Redaction.DEFAULT.isSensitive("clientSecret", Set.of()));
    }

    @Test
    void aFunctionCallsArgumentsAreRedactedInItsJsonText() {
        JsonObject call = json("{\"type\":\"function_call\",\"call_id\":\"c1\",\"name\":\"deploy\","
                + "\"arguments\":\"{\\\"env\\\":\\\"prod\\\",\\\"api_key\\\":\\\"sk-live-1\\\"}\"}");
        JsonObject shown = Redaction.DEFAULT.call(call);
        assertEquals("{\"env\":\"prod\",\"api_key\":\"[REDACTED]\"}", shown.getString("arguments"));
        assertEquals("c1", shown.getString("call_id"));
        JsonObject plain = json("{\"type\":\"function_call\",\"arguments\":\"{\\\"env\\\":\\\"prod\\\"}\"}");
        assertSame(plain, Redaction.DEFAULT.call(plain), "nothing sensitive: the call itself");
        JsonObject notJson = json("{\"type\":\"function_call\",\"arguments\":\"password=x\"}");
        assertSame(notJson, Redaction.DEFAULT.call(notJson), "arguments that are not an object are left as they are");
    }
}
