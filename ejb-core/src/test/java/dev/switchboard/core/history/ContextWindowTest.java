package dev.switchboard.core.history;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ContextWindowTest {

    private static ContextWindow.Range r(long first, long last) {
        return new ContextWindow.Range(first, last);
    }

    @Test
    void allSeesEveryItem() {
        assertTrue(ContextWindow.ALL.contains(1));
        assertTrue(ContextWindow.ALL.contains(Long.MAX_VALUE - 1));
    }

    @Test
    void closingKeepsWhatWasThereAndTakesNothingNew() {
        ContextWindow before = ContextWindow.ALL.closedAt(9);
        assertEquals(new ContextWindow(List.of(r(0, 9)), ContextWindow.CLOSED), before);
        assertTrue(before.contains(9));
        assertFalse(before.contains(10));
        ContextWindow reopened = before.openFrom(21);
        assertTrue(reopened.contains(5));
        assertFalse(reopened.contains(15), "what came between is left out");
        assertTrue(reopened.contains(21));
        assertEquals(new ContextWindow(List.of(r(0, 9)), ContextWindow.CLOSED), reopened.closedAt(20),
                "a tail that holds nothing closes to nothing");
        assertEquals(new ContextWindow(List.of(r(0, 9), r(21, 30)), ContextWindow.CLOSED), reopened.closedAt(30));
    }

    @Test
    void rangesAreSortedAndMerged() {
        assertEquals(List.of(r(1, 7), r(9, 9)),
                new ContextWindow(List.of(r(9, 9), r(4, 7), r(1, 3), r(2, 5)), 100).ranges());
        assertThrows(IllegalArgumentException.class, () -> r(5, 4));
    }

    @Test
    void keepingChoosesItemsOfTheWindowAndTakesWhatComesAfter() {
        ContextWindow w = new ContextWindow(List.of(r(1, 10)), 20);
        ContextWindow kept = w.keeping(Set.of(3L, 4L, 15L, 22L), 25);
        assertEquals(List.of(r(3, 4), r(22, 22)), kept.ranges(), "15 was not in the window");
        assertEquals(26, kept.openFrom());
    }

    @Test
    void itsJsonRoundTrips() {
        ContextWindow open = new ContextWindow(List.of(r(1, 3), r(7, 8)), 12);
        assertEquals(open, ContextWindow.fromJson(open.toJson()));
        ContextWindow closed = open.closedAt(14);
        assertEquals(closed, ContextWindow.fromJson(closed.toJson()));
        assertFalse(closed.toJson().containsKey("open_from"));
        ContextWindow headed = open.withHead(jakarta.json.Json.createObjectBuilder().add("type", "message").build());
        assertEquals(headed, ContextWindow.fromJson(headed.toJson()));
        assertEquals(headed.head(), headed.closedAt(20).openFrom(30).head(), "undo and redo keep a summary");
    }
}
