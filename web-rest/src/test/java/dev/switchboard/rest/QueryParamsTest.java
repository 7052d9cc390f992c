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
}
