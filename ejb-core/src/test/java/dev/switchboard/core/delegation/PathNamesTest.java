package dev.switchboard.core.delegation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Paths as segment lists (X2): ordinals, readable form, and the stored form's round trip. */
class PathNamesTest {

    @Test
    void aSegmentListRoundTripNeverSplitsInsideASegment() {
        List<String> segments = List.of("sess-0123456789abcdef", "researcher", "search#2", "calc");
        assertEquals(segments, PathRegistry.segmentsOf(PathRegistry.segmentsJson(segments)));
        assertEquals("sess-0123456789abcdef.researcher.search#2.calc", PathNames.readable(segments));
    }

    @Test
    void anOrdinalNamesItsListener() {
        assertEquals("search", PathNames.listenerOf("search#3"));
        assertEquals("search", PathNames.listenerOf("search"));
        assertEquals("search#2", PathNames.childSegment("search", Set.of("search")));
        assertEquals("calc", PathNames.childSegment("calc", Set.of("search")));
    }

    @Test
    void aSessionRootIsSessAndSixteenHexCharacters() {
        String root = PathNames.newRoot();
        assertTrue(root.matches("sess-[0-9a-f]{16}"), root);
        assertTrue(!root.equals(PathNames.newRoot()));
    }
}
