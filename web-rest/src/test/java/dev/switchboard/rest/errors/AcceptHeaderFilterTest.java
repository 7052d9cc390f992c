package dev.switchboard.rest.errors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class AcceptHeaderFilterTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "application/json|true",
            "*/*|true",
            "text/plain, application/x-ndjson;q=0.5|true",
            "application/json,|true",
            "*/*;q=abc|false",
            "*/*;q=2|false",
            "///|false",
            "garbage|false",
    })
    void rangesMustParse(String accept, boolean parses) {
        assertEquals(parses, AcceptHeaderFilter.parses(accept));
    }

    @Test
    void jsonIsAllowedByAWildcardOrItsOwnTypeUnlessWeightedZero() {
        assertTrue(AcceptHeaderFilter.allowsJson("application/json"));
        assertTrue(AcceptHeaderFilter.allowsJson("text/html, */*;q=0.1"));
        assertTrue(AcceptHeaderFilter.allowsJson("Application/*"));
        assertFalse(AcceptHeaderFilter.allowsJson("text/plain"));
        assertFalse(AcceptHeaderFilter.allowsJson("application/json;q=0, text/plain"));
        assertFalse(AcceptHeaderFilter.allowsJson("application/xml"));
    }
}
