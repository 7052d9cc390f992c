package dev.switchboard.core.conversation;

import static org.junit.jupiter.api.Assertions.assertEquals;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.io.StringReader;
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
        JsonObject shown = Redaction.displayParameters(raw, Set.of("pin"));
        assertEquals(json("{\"url\":\"https://x\",\"pin\":\"[REDACTED]\",\"Api-Key\":\"[REDACTED]\","
                + "\"headers\":{\"Authorization\":\"[REDACTED]\",\"accept\":\"json\"},"
                + "\"accounts\":[{\"user\":\"u\",\"password\":\"[REDACTED]\"}]}"), shown);
        assertEquals("1234", raw.getString("pin"), "the raw parameters are untouched: execution uses them");
    }

    @Test
    void nothingSensitiveMeansNothingChanged() {
        JsonObject raw = json("{\"city\":\"Oslo\",\"days\":3,\"tags\":[\"a\"]}");
        assertEquals(raw, Redaction.displayParameters(raw, Set.of()));
    }
}
