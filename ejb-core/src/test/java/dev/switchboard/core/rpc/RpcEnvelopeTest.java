package dev.switchboard.core.rpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import jakarta.json.JsonValue;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class RpcEnvelopeTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "''|-32600|empty request body",
            "'  '|-32600|empty request body",
            "{nope|-32700|Parse error",
            "[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"a\"}]|-32700|Parse error",
            "42|-32700|Parse error",
            "{\"id\":1,\"method\":\"a\"}|-32600|jsonrpc version must be '2.0'",
            "{\"jsonrpc\":2.0,\"id\":1,\"method\":\"a\"}|-32600|jsonrpc version must be '2.0'",
            "{\"jsonrpc\":\"2.0\",\"id\":1}|-32600|method is required",
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"\"}|-32600|method is required",
            "{\"jsonrpc\":\"2.0\",\"method\":\"\"}|-32600|method is required",
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"a\"}garbage|-32700|Parse error",
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"a\\u0000\"}|-32600|method must be a method name",
            "{\"jsonrpc\":\"2.0\",\"id\":{},\"method\":\"a\"}|-32600|id must be a string of at most 256 characters, an integer or null",
            "{\"jsonrpc\":\"2.0\",\"id\":[1],\"method\":\"a\"}|-32600|id must be a string of at most 256 characters, an integer or null",
            "{\"jsonrpc\":\"2.0\",\"id\":true,\"method\":\"a\"}|-32600|id must be a string of at most 256 characters, an integer or null",
            "{\"jsonrpc\":\"2.0\",\"id\":1.5,\"method\":\"a\"}|-32600|id must be a string of at most 256 characters, an integer or null",
            "{\"jsonrpc\":\"2.0\",\"id\":\"a\\u0000\",\"method\":\"a\"}|-32600|id must be a string of at most 256 characters, an integer or null",
    })
    void envelopeErrorsInHolonsOrder(String body, int code, String message) {
        RpcEnvelope.Parsed parsed = RpcEnvelope.parse(body);
        assertNull(parsed.request());
        assertEquals(code, parsed.error().code());
        assertEquals(message, parsed.error().message());
    }

    @Test
    void absentOrNullIdIsANotification() {
        assertTrue(RpcEnvelope.parse("{\"jsonrpc\":\"2.0\",\"method\":\"a\"}").request().isNotification());
        assertTrue(RpcEnvelope.parse("{\"jsonrpc\":\"2.0\",\"id\":null,\"method\":\"a\"}").request().isNotification());
    }

    @Test
    void idIsEchoedWithItsJsonType() {
        RpcEnvelope.Request s = RpcEnvelope.parse("{\"jsonrpc\":\"2.0\",\"id\":\"7\",\"method\":\"a\"}").request();
        assertEquals("{\"jsonrpc\":\"2.0\",\"id\":\"7\",\"result\":{}}",
                RpcEnvelope.result(s.id(), JsonValue.EMPTY_JSON_OBJECT).toString());
        RpcEnvelope.Request n = RpcEnvelope.parse("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"a\"}").request();
        assertEquals("{\"jsonrpc\":\"2.0\",\"id\":7,\"error\":{\"code\":-32601,\"message\":\"Method not found\"}}",
                RpcEnvelope.error(n.id(), new RpcError(-32601, "Method not found", null)).toString());
    }

    @Test
    void fieldErrorsCarryFieldAndReason() {
        assertEquals("{\"code\":-32602,\"message\":\"input is required\",\"data\":{\"field\":\"input\",\"reason\":\"input is required\"}}",
                RpcError.invalidField("input", "input is required").toJson().toString());
    }

    @Test
    void paramsMustBeAnObjectAndMembersTyped() {
        assertEquals("invalid params: params must be an object",
                assertThrows(RpcException.class, () -> Params.of(Json.createArrayBuilder().build())).getMessage());
        Params p = Params.of(Json.createObjectBuilder().add("n", "x").add("s", 5).add("t", "  a ").build());
        assertEquals("invalid params: n must be an integer", assertThrows(RpcException.class, () -> p.integer("n", 0)).getMessage());
        assertEquals("invalid params: s must be a string", assertThrows(RpcException.class, () -> p.string("s")).getMessage());
        assertEquals("a", p.trimmed("t"));
        assertEquals(9, Params.of(JsonValue.NULL).integer("missing", 9));
        RpcException range = assertThrows(RpcException.class,
                () -> Params.of(Json.createObjectBuilder().add("max_lines", 0).build()).bounded("max_lines", 1, 10, 5, "bad"));
        assertEquals("max_lines", range.error().data().getString("field"));
    }

    @Test
    void aLongStringIdIsRefusedAndAnIntegerIdOfAnySizeEchoed() {
        assertEquals(-32600, RpcEnvelope.parse("{\"jsonrpc\":\"2.0\",\"id\":\"" + "x".repeat(257)
                + "\",\"method\":\"a\"}").error().code());
        RpcEnvelope.Request big = RpcEnvelope.parse("{\"jsonrpc\":\"2.0\",\"id\":18446744073709551619,\"method\":\"a\"}")
                .request();
        assertEquals("18446744073709551619", big.id().toString());
    }

    @Test
    void integersOutsideTheRangeAreRefusedNotWrapped() {
        Params p = Params.of(Json.createObjectBuilder().add("after_seq", new java.math.BigInteger("18446744073709551619"))
                .add("huge", new java.math.BigDecimal("1e400")).build());
        RpcException wrapped = assertThrows(RpcException.class, () -> p.integer("after_seq", -1));
        assertEquals(-32602, wrapped.error().code());
        assertEquals("after_seq", wrapped.error().data().getString("field"));
        assertEquals(-32602, assertThrows(RpcException.class, () -> p.integer("huge", -1)).error().code());
        assertEquals(Long.MAX_VALUE, Params.of(Json.createObjectBuilder().add("n", Long.MAX_VALUE).build())
                .integer("n", 0));
    }

    @Test
    void paramsWithTextThatCannotBeStoredAreInvalidParams() {
        RpcException e = assertThrows(RpcException.class, () -> Params.of(Json.createObjectBuilder()
                .add("input", Json.createArrayBuilder().add(Json.createObjectBuilder().add("text", "a\u0000b"))).build()));
        assertEquals(-32602, e.error().code());
        assertEquals("invalid params: params.input[0].text contains U+0000 (NUL), which cannot be stored",
                e.error().message());
    }

    @Test
    void holonNamesAreAliases() {
        assertEquals("server/status", RpcMethods.canonical("holon/status"));
        assertEquals("server/logStream", RpcMethods.canonical("holon/logStream"));
        assertEquals("turn/start", RpcMethods.canonical("turn/start"));
        assertNull(RpcMethods.canonical("thread/delete"));
    }
}
