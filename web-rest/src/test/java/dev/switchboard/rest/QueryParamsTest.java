package dev.switchboard.rest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.switchboard.rest.errors.ApiException;
import org.junit.jupiter.api.Test;

class QueryParamsTest {

    @Test
    void absentTakesTheDefaultAndValuesAreTrimmed() {
        assertEquals(30, QueryParams.bounded(null, 30, 0, 300, "timeout"));
        assertEquals(7, QueryParams.bounded(" 7 ", 30, 0, 300, "timeout"));
        assertEquals(0, QueryParams.bounded("0", 30, 0, 300, "timeout"));
    }

    @Test
    void outOfRangeOrNotANumberIsInvalidNamedAfterTheParameter() {
        for (String bad : new String[] {"-1", "301", "abc", "1.5", "", "99999999999999999999"}) {
            ApiException e = assertThrows(ApiException.class, () -> QueryParams.bounded(bad, 30, 0, 300, "timeout"));
            assertEquals(400, e.status());
            assertEquals("invalid_timeout", e.code());
        }
    }

    @Test
    void valuesAreDecodedStrictlyAsUtf8() {
        assertEquals(java.util.List.of("a b", "é", ""), QueryParams.values("thread_id=a+b&x=1&thread_id=%C3%A9&thread_id=", "thread_id"));
        assertEquals(java.util.List.of(), QueryParams.values(null, "thread_id"));
        assertEquals(java.util.List.of("t"), QueryParams.values("thread%5Fid=t", "thread_id"));
        assertEquals(java.util.List.of("\uD83D\uDE00 é"), QueryParams.values("thread_id=\uD83D\uDE00+\u00e9", "thread_id"),
                "characters sent unescaped are kept");
        for (String bad : new String[] {"thread_id=%zz", "thread_id=%C3", "thread_id=%ff", "thread_id=%", "thread_id=%e"}) {
            ApiException e = assertThrows(ApiException.class, () -> QueryParams.values(bad, "thread_id"), bad);
            assertEquals(400, e.status());
            assertEquals("invalid_query", e.code());
        }
    }
}
