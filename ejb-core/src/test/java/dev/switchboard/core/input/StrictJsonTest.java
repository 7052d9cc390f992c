package dev.switchboard.core.input;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import jakarta.json.JsonValue;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class StrictJsonTest {

    private static String refusal(String body) {
        return assertThrows(InvalidJsonException.class, () -> StrictJson.parse(body)).getMessage();
    }

    @Test
    void oneValueWithWhitespaceAroundIsRead() {
        assertEquals("{\"text\":\"x\"}", StrictJson.parse(" {\"text\":\"x\"}\n").toString());
        assertEquals(JsonValue.ValueType.NUMBER, StrictJson.parse("42").getValueType());
        assertEquals("\"a\"", StrictJson.parse("\"a\"").toString());
    }

    @ParameterizedTest
    @ValueSource(strings = {"{\"text\":\"x\"}garbage", "{\"a\":1}{\"a\":2}", "1 2", "[1]]", "{\"a\":1}}"})
    void textAfterTheValueIsRefused(String body) {
        refusal(body);
    }

    @ParameterizedTest
    @ValueSource(strings = {"{", "}", "\"", "x", "{\"a\":}", "[1,]", "{'a':1}", "nul", "-", "01"})
    void malformedBodiesAreRefusedWithoutAnExceptionOfTheParser(String body) {
        refusal(body);
    }

    @Test
    void nestingIsBounded() {
        String ok = "[".repeat(StrictJson.MAX_DEPTH) + "]".repeat(StrictJson.MAX_DEPTH);
        assertEquals(JsonValue.ValueType.ARRAY, StrictJson.parse(ok).getValueType());
        String deep = "{\"a\":".repeat(100_000) + "1" + "}".repeat(100_000);
        assertEquals("nested deeper than 64 levels", refusal(deep));
        assertEquals("nested deeper than 64 levels", refusal("[".repeat(1_000_000)));
    }

    @Test
    void bracketsInsideStringsDoNotCount() {
        String text = "\"" + "[{".repeat(500) + "\\\"" + "\"";
        assertEquals(JsonValue.ValueType.STRING, StrictJson.parse(text).getValueType());
    }

    @Test
    void numbersAreBounded() {
        assertEquals("a number is longer than 100 characters", refusal("1".repeat(1_200)));
        assertEquals("a number is longer than 100 characters", refusal("{\"n\":0." + "5".repeat(150) + "}"));
        assertEquals("a number's exponent has more than 4 digits", refusal("[1e999999999]"));
        assertEquals("a number's exponent has more than 4 digits", refusal("1E-1000000"));
        assertEquals(JsonValue.ValueType.NUMBER, StrictJson.parse("1e0009").getValueType());
        assertEquals(JsonValue.ValueType.NUMBER, StrictJson.parse("-12345678901234567890.5e-12").getValueType());
    }

    @Test
    void literalsAreNotNumbers() {
        assertEquals("[true,false,null]", StrictJson.parse("[true,false,null]").toString());
    }

    @Test
    void invalidUtf8IsRefusedNotReplaced() {
        byte[] lone = {'"', (byte) 0xC3, '"'};
        byte[] overlong = {'"', (byte) 0xC0, (byte) 0xAF, '"'};
        byte[] surrogate = {'"', (byte) 0xED, (byte) 0xA0, (byte) 0x80, '"'};
        for (byte[] bytes : new byte[][] {lone, overlong, surrogate}) {
            assertEquals("the body is not valid UTF-8",
                    assertThrows(InvalidJsonException.class, () -> StrictJson.parse(bytes)).getMessage());
        }
        assertEquals("\"é\"", StrictJson.parse("\"é\"".getBytes(StandardCharsets.UTF_8)).toString());
    }

    @Test
    void anEmptyBodyHoldsNoValue() {
        refusal("");
        refusal("   ");
    }
}
