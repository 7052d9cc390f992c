package dev.switchboard.rest.messages;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.switchboard.rest.JsonBody;
import dev.switchboard.rest.errors.ApiException;
import jakarta.ws.rs.core.MediaType;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class MessagePayloadTest {

    private static JsonBody.Parsed json(String body) {
        return JsonBody.read(MediaType.APPLICATION_JSON_TYPE,
                new ByteArrayInputStream(body.getBytes(StandardCharsets.UTF_8)), 1 << 20);
    }

    private static MessagePayload payload(String body) {
        return MessagePayload.from(json(body));
    }

    private static ApiException error(Runnable r) {
        return assertThrows(ApiException.class, r::run);
    }

    private static void assertCode(int status, String code, ApiException e) {
        assertEquals(code, e.code(), e.getMessage());
        assertEquals(status, e.status());
    }

    @Test
    void defaultsAndTrimmingFollowJagc() {
        MessagePayload p = payload("{\"text\":\"  hi  \",\"source\":\" tg \",\"thread_key\":\" t1 \","
                + "\"user_key\":\" u \",\"idempotency_key\":\" k \",\"unknown\":1}");
        assertEquals("  hi  ", p.text(), "text is not trimmed");
        assertEquals("tg", p.source());
        assertEquals("t1", p.threadKey());
        assertEquals("u", p.userKey());
        assertEquals("k", p.idempotencyKey());
        assertEquals("followUp", p.deliveryMode());

        MessagePayload d = payload("{\"text\":\"   \"}");
        assertEquals("cli", d.source());
        assertEquals("cli:default", d.threadKey());
        assertNull(d.userKey());
        assertNull(d.idempotencyKey());
    }

    @Test
    void invalidPayloadsAreInvalidMessagePayload() {
        for (String body : List.of("{}", "{\"source\":\"cli\"}", "{\"text\":\"\"}", "{\"text\":1}",
                "{\"text\":\"x\",\"user_key\":null}", "{\"text\":\"x\",\"user_key\":\"\"}",
                "{\"text\":\"x\",\"idempotency_key\":null}", "{\"text\":\"x\",\"source\":\"  \"}",
                "{\"text\":\"x\",\"delivery_mode\":\"Steer\"}", "{\"text\":\"x\",\"delivery_mode\":null}",
                "{\"text\":\"x\",\"thread_key\":[]}", "[]", "\"text\"", "42")) {
            assertCode(400, "invalid_message_payload", error(() -> payload(body)));
        }
        assertEquals("expected object, received array", error(() -> payload("[1]")).getMessage());
        assertEquals("text: required", error(() -> payload("{}")).getMessage());
    }

    /**
     * A client must not name a source the server's own runs use: it could pose as a chat message,
     * as a person's approved tool call ({@code chat:approval}) or as a delegated agent.
     */
    @Test
    void theServersOwnSourcesAreRefused() {
        for (String source : List.of("rpc", "chat", "responses", "chat:approval", "chat:compact", "chat:other",
                "ingress:github", "delegation:planner", " chat ")) {
            ApiException e = error(() -> payload("{\"text\":\"x\",\"source\":\"" + source + "\"}"));
            assertCode(400, "invalid_message_payload", e);
            assertEquals("source: \"" + source.strip() + "\" is reserved for the server's own runs", e.getMessage());
        }
        for (String source : List.of("cli", "telegram", "chatbot", "rpc-bridge", "my:chat")) {
            assertEquals(source, payload("{\"text\":\"x\",\"source\":\"" + source + "\"}").source());
        }
    }

    @Test
    void overlongKeysAreRejected() {
        String longKey = "k".repeat(MessagePayload.MAX_THREAD_KEY + 1);
        assertCode(400, "invalid_message_payload", error(() -> payload("{\"text\":\"x\",\"thread_key\":\"" + longKey + "\"}")));
    }

    @Test
    void missingBodyAndPlainTextAreInvalidPayloadsNotFrameworkErrors() {
        assertEquals("expected object, received undefined", error(() -> MessagePayload.from(
                JsonBody.read(null, new ByteArrayInputStream(new byte[0]), 100))).getMessage());
        assertEquals("expected object, received string", error(() -> MessagePayload.from(
                JsonBody.read(MediaType.TEXT_PLAIN_TYPE, new ByteArrayInputStream("hi".getBytes()), 100))).getMessage());
    }

    @Test
    void frameworkErrorsHaveTheirOwnCodes() {
        assertCode(400, "empty_json_body", error(() -> json("  ")));
        assertCode(400, "invalid_json_body", error(() -> json("{\"text\":")));
        assertCode(415, "unsupported_media_type", error(() -> JsonBody.read(MediaType.APPLICATION_XML_TYPE,
                new ByteArrayInputStream("<a/>".getBytes()), 100)));
        assertCode(413, "payload_too_large", error(() -> JsonBody.read(MediaType.APPLICATION_JSON_TYPE,
                new ByteArrayInputStream(new byte[101]), 100)));
    }

    @Test
    void idempotencyKeyChecksComeInJagcsOrder() {
        MessagePayload withKey = payload("{\"text\":\"x\",\"idempotency_key\":\"a\"}");
        MessagePayload noKey = payload("{\"text\":\"x\"}");
        assertEquals("a", withKey.effectiveKey(null));
        assertEquals("h", noKey.effectiveKey(List.of(" h ")));
        assertEquals("a", withKey.effectiveKey(List.of("a")));
        assertNull(noKey.effectiveKey(List.of()));
        assertCode(400, "invalid_idempotency_key_header", error(() -> withKey.effectiveKey(List.of("  "))));
        assertCode(400, "invalid_idempotency_key_header", error(() -> noKey.effectiveKey(List.of("a", "b"))));
        ApiException mismatch = error(() -> withKey.effectiveKey(List.of("b")));
        assertCode(400, "idempotency_key_mismatch", mismatch);
        assertEquals("idempotency key in request body does not match Idempotency-Key header", mismatch.getMessage());
    }

    @Test
    void aBatchHoldsMessagesWithTheSameRulesAndNamesTheFirstProblemByItsPath() {
        List<MessagePayload> batch = MessagePayload.batch(json(
                "{\"messages\":[{\"text\":\"a\"},{\"text\":\"b\",\"thread_key\":\" t \",\"idempotency_key\":\"k\"}]}"), 3);
        assertEquals(List.of("a", "b"), batch.stream().map(MessagePayload::text).toList());
        assertEquals("cli:default", batch.get(0).threadKey(), "defaults apply per message");
        assertEquals("t", batch.get(1).threadKey());
        assertEquals("k", batch.get(1).idempotencyKey());
        assertEquals("messages[1].text: must contain at least 1 character", error(() -> MessagePayload.batch(
                json("{\"messages\":[{\"text\":\"a\"},{\"text\":\"\"}]}"), 3)).getMessage());
        assertEquals("messages[0].source: expected string, received number", error(() -> MessagePayload.batch(
                json("{\"messages\":[{\"text\":\"a\",\"source\":1}]}"), 3)).getMessage());
        assertEquals("messages: must contain at most 3 items", error(() -> MessagePayload.batch(
                json("{\"messages\":[{},{},{},{}]}"), 3)).getMessage());
        assertEquals("expected object, received array", error(() -> MessagePayload.batch(json("[]"), 3)).getMessage());
        assertCode(400, "invalid_message_payload", error(() -> MessagePayload.batch(json("{\"messages\":null}"), 3)));
    }

    @Test
    void aSingleMessageKeepsItsUnprefixedMessages() {
        assertEquals("text: required", error(() -> payload("{}")).getMessage());
    }
}
