package dev.switchboard.rest.rpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.switchboard.rest.errors.ApiException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code GET /rpc/stream}'s thread filter: a bad value is refused, never read as no filter. */
class ThreadFilterTest {

    @Test
    void noThreadIdIsNoFilterAndEachGivenOneFilters() {
        assertNull(RpcStreamResource.threadFilter(null));
        assertNull(RpcStreamResource.threadFilter("after_seq=3"));
        assertEquals(List.of("a", "b c"), RpcStreamResource.threadFilter("thread_id=a&thread_id=b%20c"));
    }

    @Test
    void anEmptyNulOrNonUtf8ThreadIdIsRefused() {
        for (String[] bad : new String[][] {{"thread_id=", "invalid_thread_id"}, {"thread_id=%20", "invalid_thread_id"},
                {"thread_id=a%00b", "invalid_text"}, {"thread_id=%ff", "invalid_query"}, {"thread_id=%zz", "invalid_query"}}) {
            ApiException e = assertThrows(ApiException.class, () -> RpcStreamResource.threadFilter(bad[0]), bad[0]);
            assertEquals(400, e.status(), bad[0]);
            assertEquals(bad[1], e.code(), bad[0]);
        }
    }
}
