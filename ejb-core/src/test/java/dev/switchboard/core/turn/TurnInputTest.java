package dev.switchboard.core.turn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import jakarta.json.Json;
import jakarta.json.JsonValue;
import java.io.StringReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TurnInputTest {

    private static JsonValue json(String text) {
        return Json.createReader(new StringReader(text)).readValue();
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "[]|input|input is required",
            "[{\"type\":\"tool\",\"content\":[{\"text\":\"x\"}]}]|input[0].type|input[0].type must be 'message'",
            "[{\"type\":\"message\"}]|input[0].content|input[0].content is required",
            "[{\"content\":[]}]|input[0].content|input[0].content is required",
            "[{\"content\":[{\"text\":\"a\"},{\"type\":\"image\",\"text\":\"b\"}]}]|input[0].content[1].type|input[0].content[1].type must be 'input_text' or 'text'",
            "[{\"content\":[{\"text\":\"a\"}]},{\"content\":[{\"text\":\"   \"}]}]|input[1].content[0].text|input[1].content[0].text is required",
    })
    void validationFollowsHolonsOrderAndPaths(String input, String field, String reason) {
        InvalidInputException e = assertThrows(InvalidInputException.class, () -> TurnInput.parse(json(input)));
        assertEquals(field, e.field());
        assertEquals(reason, e.getMessage());
    }

    @Test
    void missingInputIsRequired() {
        assertEquals("input", assertThrows(InvalidInputException.class, () -> TurnInput.parse(null)).field());
        assertEquals("input", assertThrows(InvalidInputException.class, () -> TurnInput.parse(JsonValue.NULL)).field());
    }

    @Test
    void wrongJsonTypesAreUndecodableNotFieldErrors() {
        assertThrows(IllegalArgumentException.class, () -> TurnInput.parse(json("\"hello\"")));
        assertThrows(IllegalArgumentException.class, () -> TurnInput.parse(json("[{\"content\":[{\"text\":5}]}]")));
        assertThrows(IllegalArgumentException.class, () -> TurnInput.parse(json("[{\"role\":1,\"content\":[{\"text\":\"a\"}]}]")));
    }

    @Test
    void normalisesRoleTypeAndText() {
        TurnInput input = TurnInput.parse(json("[{\"content\":[{\"type\":\"text\",\"text\":\"  hi  \"}]},"
                + "{\"role\":\"system\",\"content\":[{\"text\":\"two\"}]}]"));
        assertEquals("{\"type\":\"message\",\"role\":\"user\",\"content\":[{\"type\":\"input_text\",\"text\":\"hi\"}]}",
                input.messages().get(0).toString());
        assertEquals("system", input.messages().get(1).getString("role"));
        assertEquals("hi\ntwo", input.text());
        assertEquals(2, input.size());
    }

    @Test
    void carriedInputComesFirstAndSurvivesStorage() {
        TurnInput earlier = TurnInput.ofText("earlier");
        TurnInput later = TurnInput.ofText("later");
        TurnInput merged = earlier.then(later);
        assertEquals("earlier\nlater", merged.text());
        assertEquals(merged.toJson(), TurnInput.fromJson(merged.toJson()).toJson());
    }
}
