package dev.switchboard.core.input;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class StorableTextTest {

    @Test
    void nulAndUnpairedSurrogatesCannotBeStored() {
        assertEquals(Optional.of("contains U+0000 (NUL), which cannot be stored"), StorableText.problem("a\u0000b"));
        assertEquals(Optional.of("contains an unpaired surrogate (U+D800), which is not Unicode text"),
                StorableText.problem("x\ud800"));
        assertEquals(Optional.of("contains an unpaired surrogate (U+DC00), which is not Unicode text"),
                StorableText.problem("\udc00x"));
    }

    @Test
    void everythingElseCan() {
        assertTrue(StorableText.problem("plain, \t\n\u0001 control, émoji \ud83d\ude00, 中文").isEmpty());
        assertTrue(StorableText.problem(null).isEmpty());
        assertTrue(StorableText.problem("").isEmpty());
    }

    @Test
    void theFirstProblemInADocumentIsNamedByItsPath() {
        assertEquals(Optional.of("params.input[1].text contains U+0000 (NUL), which cannot be stored"),
                StorableText.firstProblem(StrictJson.parse("{\"input\":[{\"text\":\"ok\"},{\"text\":\"a\\u0000\"}]}"),
                        "params"));
        assertEquals(Optional.of("a member name in the body contains U+0000 (NUL), which cannot be stored"),
                StorableText.firstProblem(StrictJson.parse("{\"a\\u0000\":1}"), ""));
        assertEquals(Optional.of("text contains an unpaired surrogate (U+D83D), which is not Unicode text"),
                StorableText.firstProblem(StrictJson.parse("{\"text\":\"\\ud83d\"}"), ""));
        assertTrue(StorableText.firstProblem(StrictJson.parse("{\"a\":[1,true,null,\"\\ud83d\\ude00\"]}"), "").isEmpty());
    }
}
