package dev.switchboard.core.webhook;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.io.StringReader;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** One rule for a rotation's request, whichever door it came through (issue 49: REST refused {@code null}, JSON-RPC took it). */
class RotationTest {

    private static JsonObject json(String text) {
        return Json.createReader(new StringReader(text)).readObject();
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {"{}|86400", "{\"grace_seconds\":0}|0", "{\"grace_seconds\":604800}|604800",
            "{\"id\":\"ep_1\",\"grace_seconds\":60}|60"})
    void aGraceOfWholeSecondsInRangeOrNoneIsTaken(String request, long seconds) {
        assertEquals(seconds, Rotation.graceSeconds(json(request), Set.of("id")));
    }

    @ParameterizedTest
    @ValueSource(strings = {"{\"grace_seconds\":null}", "{\"grace_seconds\":\"60\"}", "{\"grace_seconds\":1.5}", "{\"grace_seconds\":3600.0}",
            "{\"grace_seconds\":-1}", "{\"grace_seconds\":604801}", "{\"grace_seconds\":1e30}", "{\"grace_seconds\":true}"})
    void anythingElseIsRefusedAsAGrace(String request) {
        WebhookException e = assertThrows(WebhookException.class, () -> Rotation.graceSeconds(json(request), Set.of("id")));
        assertEquals("invalid_grace_seconds", e.code(), request);
    }

    @ParameterizedTest
    @ValueSource(strings = {"{\"grace\":60}", "{\"id\":\"ep_1\"}"})
    void aMemberNeitherTheRequestsNorTheDoorsIsRefused(String request) {
        WebhookException e = assertThrows(WebhookException.class, () -> Rotation.graceSeconds(json(request), Set.of()));
        assertEquals("invalid_body", e.code(), request);
    }
}
