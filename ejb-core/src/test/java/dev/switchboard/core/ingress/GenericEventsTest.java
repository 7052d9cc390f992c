package dev.switchboard.core.ingress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.io.StringReader;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Generic envelopes (§8, §9.2a), the timer schedule, long dedupe keys and record cursors. */
class GenericEventsTest {

    private static final Instant NOW = Instant.parse("2026-11-21T10:00:00Z");

    private static JsonObject json(String text) {
        return Json.createReader(new StringReader(text.replace('\'', '"'))).readObject();
    }

    private static EventEnvelope parse(String body) {
        return GenericEvents.parse(json(body), "hint/repo", "evt_fresh", NOW);
    }

    @Test
    void aMinimalEnvelopeIsFilledLikeInjectEvent() {
        EventEnvelope e = parse("{'source':'ci','type':'ci.build.failed','subject':{'kind':'build','id':42}}");
        assertEquals("evt_fresh", e.id());
        assertEquals(NOW, e.at());
        assertEquals("hint/repo", e.scope().repo());
        assertEquals(new EventEnvelope.Subject("build", "42"), e.subject());
        assertEquals("ci:hint/repo:build:42:ci.build.failed", e.dedupeKey());
        assertEquals("event:hint/repo", SessionRouting.route(e));
    }

    @Test
    void givenMembersAreKept() {
        EventEnvelope e = parse("{'id':'evt_given.1','source':'cron','type':'cron.daily','at':'2026-11-20T08:00:00+01:00',"
                + "'scope':{'repo':'acme/app','partition':'nightly'},'dedupe_key':'cron:daily:2026-11-20',"
                + "'payload':{'instruction':'summarise'}}");
        assertEquals("evt_given.1", e.id());
        assertEquals(Instant.parse("2026-11-20T07:00:00Z"), e.at());
        assertEquals("cron:daily:2026-11-20", e.dedupeKey());
        assertEquals("event:nightly", SessionRouting.route(e));
        assertEquals("summarise", e.payload().asJsonObject().getString("instruction"));
        assertEquals("summarise", IngressLedger.instruction(e.toJson()));
    }

    @Test
    void withoutAnInstructionTheEngineGetsTheEventInOneLine() {
        EventEnvelope e = parse("{'id':'evt_9','source':'ci','type':'ci.done','scope':{'repo':'a/b'},"
                + "'subject':{'kind':'build','id':'7'}}");
        assertEquals("event ci.done in a/b build#7 (evt_9)", IngressLedger.instruction(e.toJson()));
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', value = {
        "{'source':'ci'}|type",
        "{'source':'ci','type':'  '}|type",
        "{'type':'x'}|source",
        "{'source':7,'type':'x'}|source",
        "{'source':'ci','type':'x','id':'has space'}|id",
        "{'source':'ci','type':'x','at':'yesterday'}|at",
        "{'source':'ci','type':'x','at':12}|at",
        "{'source':'ci','type':'x','scope':'acme'}|scope",
        "{'source':'ci','type':'x','scope':{'repo':5}}|scope.repo",
        "{'source':'ci','type':'x','subject':[]}|subject",
        "{'source':'ci','type':'x','subject':{'id':true}}|subject.id",
        "{'source':'ci','type':'x','dedupe_key':{}}|dedupe_key",
    })
    void malformedEnvelopesNameTheField(String body, String field) {
        InvalidEventException e = assertThrows(InvalidEventException.class, () -> parse(body));
        assertEquals(field, e.field());
    }

    @Test
    void overlongMembersAreRefused() {
        String longType = "t".repeat(GenericEvents.MAX_TYPE + 1);
        assertEquals("type", assertThrows(InvalidEventException.class,
                () -> parse("{'source':'ci','type':'" + longType + "'}")).field());
        String longKey = "s".repeat(GenericEvents.MAX_SESSION_KEY + 1);
        assertEquals("payload.session_key", assertThrows(InvalidEventException.class,
                () -> parse("{'source':'ci','type':'x','payload':{'session_key':'" + longKey + "'}}")).field());
    }

    @Test
    void onlyBodiesWithAStringTypeAreEnvelopes() {
        assertTrue(GenericEvents.isEnvelope(json("{'type':'ci.done'}")));
        assertFalse(GenericEvents.isEnvelope(json("{'type':''}")));
        assertFalse(GenericEvents.isEnvelope(json("{'type':3,'action':'opened'}")));
        assertFalse(GenericEvents.isEnvelope(json("{'action':'opened','x_github_event':'issues'}")));
    }

    @Test
    void longDedupeKeysAreStoredAsTheirHash() {
        String shortKey = "github:a/b:issue:1:label:labeled:bug";
        assertEquals(shortKey, DedupeKeys.storable(shortKey));
        String longKey = "github:a/b:issue:1:label:labeled:" + "x".repeat(600);
        String stored = DedupeKeys.storable(longKey);
        assertTrue(stored.startsWith("sha256:") && stored.length() <= GenericEvents.MAX_DEDUPE_KEY, stored);
        assertEquals(stored, DedupeKeys.storable(longKey));
        assertFalse(stored.equals(DedupeKeys.storable(longKey + "y")));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"5m,300", "90s,90", "1h,3600", "PT2M,120", "pt10s,10"})
    void tickIntervals(String text, long seconds) {
        assertEquals(Optional.of(Duration.ofSeconds(seconds)), TickSchedule.parseInterval(text));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"0s", "-5m", "5", "five minutes", "PT0.5S", "m"})
    void invalidTickIntervalsTurnTimersOff(String text) {
        assertEquals(Optional.empty(), TickSchedule.parseInterval(text));
    }

    @Test
    void ticksAreDueAtBucketBoundaries() {
        TickSchedule schedule = new TickSchedule(Duration.ofMinutes(5), List.of("holon-run/holon"));
        assertEquals(Instant.parse("2026-02-10T15:05:00Z"), schedule.nextTick(Instant.parse("2026-02-10T15:04:59Z")));
        assertEquals(Instant.parse("2026-02-10T15:10:00Z"), schedule.nextTick(Instant.parse("2026-02-10T15:05:00Z")));
        assertEquals(List.of("a/b", "c/d"), TickSchedule.parseRepos(" a/b, ,c/d,a/b "));
    }

    @Test
    void cursorsRoundTripAndForeignTextIsRefused() {
        RecordQuery.Cursor c = new RecordQuery.Cursor(1763719200123L, "decision_1763719200123456789_4");
        assertEquals(Optional.of(c), RecordQuery.Cursor.decode(c.encode()));
        assertEquals(Optional.empty(), RecordQuery.Cursor.decode("not a cursor!"));
        assertEquals(Optional.empty(), RecordQuery.Cursor.decode("YWJj")); // "abc": no time
    }

    @Test
    void forgedCursorsAreRefused() {
        for (String raw : List.of("-1:-1", "1:::", "1:a b", "1:" + "x".repeat(65), "99999999999999999999:evt_1", "+1:evt_1",
                "1:evt_1\u0000")) {
            String text = java.util.Base64.getUrlEncoder().withoutPadding().encodeToString(raw.getBytes());
            assertEquals(Optional.empty(), RecordQuery.Cursor.decode(text), raw);
        }
        String padded = java.util.Base64.getUrlEncoder().encodeToString("1:evt_1".getBytes());
        assertEquals(Optional.empty(), RecordQuery.Cursor.decode(padded), "not this server's encoding");
        assertEquals(Optional.empty(), RecordQuery.Cursor.decode("_w"), "not UTF-8");
    }

    @Test
    void anEventIdStartsWithALetterOrDigit() {
        assertEquals("id", assertThrows(InvalidEventException.class,
                () -> parse("{'source':'ci','type':'t','id':':x'}")).field());
        assertEquals("a.b:c-d_e", parse("{'source':'ci','type':'t','id':'a.b:c-d_e'}").id());
    }
}
