package dev.switchboard.core.responses;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import java.io.StringReader;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

/** How a conversation becomes a compaction, and how a compaction item is sealed, opened and expanded. */
class CompactionsTest {

    private static final CompactionSeal SEAL = new CompactionSeal(new SecretKeySpec(new byte[32], "AES"));

    private static JsonObject json(String text) {
        return Json.createReader(new StringReader(text)).readObject();
    }

    @Test
    void theTranscriptHasOneLinePerItemInOrder() {
        String transcript = Compactions.transcript(List.of(
                json("{\"type\":\"message\",\"role\":\"user\",\"content\":[{\"type\":\"input_text\",\"text\":\"weather?\"}]}"),
                json("{\"type\":\"function_call\",\"call_id\":\"c1\",\"name\":\"get_weather\",\"arguments\":\"{\\\"city\\\":\\\"Oslo\\\"}\"}"),
                json("{\"type\":\"function_call_output\",\"call_id\":\"c1\",\"output\":\"-3C\"}"),
                json("{\"type\":\"reasoning\",\"summary\":[{\"type\":\"summary_text\",\"text\":\"It is cold.\"}]}"),
                json("{\"type\":\"message\",\"role\":\"assistant\",\"content\":[{\"type\":\"output_text\",\"text\":\"Cold.\"}]}")));
        assertEquals("user: weather?\nfunction_call get_weather({\"city\":\"Oslo\"}) as c1\nfunction_call_output c1: -3C\n"
                + "reasoning: It is cold.\nassistant: Cold.", transcript);
    }

    @Test
    void aSealedCompactionOpensOnlyUnalteredAndOnlyForItsUser() {
        JsonArray items = Compactions.summaryItems("the user lives in Oslo");
        String sealed = SEAL.seal("alice", items);
        assertEquals(Optional.of(items), SEAL.open("alice", sealed));
        assertNotEquals(sealed, SEAL.seal("alice", items), "each seal has a fresh nonce");
        assertEquals(Optional.empty(), SEAL.open("bob", sealed));
        byte[] bytes = Base64.getUrlDecoder().decode(sealed);
        bytes[bytes.length - 1] ^= 1;
        assertEquals(Optional.empty(), SEAL.open("alice", Base64.getUrlEncoder().withoutPadding().encodeToString(bytes)));
        assertEquals(Optional.empty(), SEAL.open("alice", "not base64 at all!"));
        assertEquals(Optional.empty(), SEAL.open("alice", ""));
        byte[] another = new byte[32];
        another[0] = 1;
        CompactionSeal otherKey = new CompactionSeal(new SecretKeySpec(another, "AES"));
        assertEquals(Optional.empty(), otherKey.open("alice", sealed));
    }

    @Test
    void aCompactionItemInTheInputIsReplacedByTheItemsItStandsFor() {
        JsonObject first = json("{\"type\":\"message\",\"role\":\"user\",\"content\":\"next\"}");
        List<JsonObject> plain = List.of(first);
        assertSame(plain, Compactions.expand(plain, s -> Optional.empty()), "no compaction, nothing to do");
        String sealed = SEAL.seal("alice", Compactions.summaryItems("earlier"));
        List<JsonObject> expanded = Compactions.expand(List.of(
                json("{\"type\":\"compaction\",\"encrypted_content\":\"" + sealed + "\"}"), first), s -> SEAL.open("alice", s));
        assertEquals(2, expanded.size());
        assertEquals(Compactions.SUMMARY_PREFIX + "earlier", expanded.get(0).getJsonArray("content").getJsonObject(0)
                .getString("text"));
        assertEquals(first, expanded.get(1));
        ResponseError refused = assertThrows(ResponseError.class, () -> Compactions.expand(List.of(first,
                json("{\"type\":\"compaction\",\"encrypted_content\":\"" + sealed + "\"}")), s -> SEAL.open("bob", s)));
        assertEquals(400, refused.status());
        assertEquals("input[1].encrypted_content", refused.param());
        assertTrue(refused.getMessage().contains("not a compaction"));
    }

    @Test
    void theAnswerIsAResponseCompactionWithOneCompactionItem() {
        JsonObject usage = json("{\"input_tokens\":3}");
        JsonObject answer = Compactions.result("resp_abc", 1_795_252_968_123L, "sealed", usage);
        assertEquals("response.compaction", answer.getString("object"));
        assertEquals(1_795_252_968L, answer.getJsonNumber("created_at").longValue());
        JsonObject item = answer.getJsonArray("output").getJsonObject(0);
        assertEquals("compaction", item.getString("type"));
        assertEquals("cmp_abc", item.getString("id"));
        assertEquals("sealed", item.getString("encrypted_content"));
        assertEquals(usage, answer.getJsonObject("usage"));
    }
}
