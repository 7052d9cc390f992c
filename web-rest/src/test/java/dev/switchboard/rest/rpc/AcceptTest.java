package dev.switchboard.rest.rpc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class AcceptTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', nullValues = "NULL", value = {
            "NULL|false",
            "''|false",
            "application/x-ndjson|true",
            "application/x-ndjson; charset=utf-8|true",
            "text/plain, application/x-ndjson|true",
            "*/*|true",
            "application/json|false",
            "text/event-stream|false",
    })
    void holonsAcceptMatrix(String accept, boolean accepted) {
        assertEquals(accepted, RpcStreamResource.acceptsNdjson(accept));
    }
}
