package dev.switchboard.core.thread;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** Keyset pages of threads, searched by a case-insensitive substring of the key within a bounded scan. */
class ThreadListingTest {

    /** An index range over sorted keys that counts the rows it hands out and the reads made. */
    private static final class Index implements ThreadListing.Rows {
        final TreeSet<String> keys = new TreeSet<>();
        int rowsRead;
        int reads;

        Index(List<String> keys) {
            this.keys.addAll(keys);
        }

        @Override
        public List<ThreadRow> after(String afterKey, int limit) {
            reads++;
            List<ThreadRow> rows = new ArrayList<>();
            for (String key : keys.tailSet(afterKey, false)) {
                if (rows.size() == limit) {
                    break;
                }
                rows.add(new ThreadRow(rows.size(), key, 0, false));
            }
            rowsRead += rows.size();
            return rows;
        }
    }

    private static List<String> keys(ThreadListing.Page page) {
        return page.threads().stream().map(ThreadRow::threadKey).toList();
    }

    @Test
    void withoutASearchAPageIsOneReadAndNamesWhereTheNextStarts() {
        Index index = new Index(List.of("a", "b", "c", "d", "e"));
        ThreadListing.Page first = ThreadListing.page(index, null, 2, null, ThreadListing.SEARCH_BUDGET);
        assertEquals(List.of("a", "b"), keys(first));
        assertEquals("b", first.nextAfter());
        ThreadListing.Page last = ThreadListing.page(index, "c", 2, null, ThreadListing.SEARCH_BUDGET);
        assertEquals(List.of("d", "e"), keys(last));
        assertNull(last.nextAfter(), "nothing follows e");
        assertEquals(2, index.reads);
        assertEquals(3 + 2, index.rowsRead, "a row more than the page, only to know whether more follow");
    }

    @Test
    void aSearchFindsKeysContainingTheTextInAnyCase() {
        Index index = new Index(List.of("Kitchen", "bathroom", "my-KITCHEN-2", "responses/resp_1", "xkitchenx"));
        String needle = ThreadListing.needle("  kItChEn ");
        assertEquals("kitchen", needle);
        ThreadListing.Page page = ThreadListing.page(index, null, 10, needle, ThreadListing.SEARCH_BUDGET);
        assertEquals(List.of("Kitchen", "my-KITCHEN-2", "xkitchenx"), keys(page));
        assertNull(page.nextAfter());
        assertNull(ThreadListing.needle("   "), "a blank search is none");
        assertNull(ThreadListing.needle(null));
    }

    @Test
    void aFullPageOfMatchesEndsAtItsLastMatchWhenAnotherFollows() {
        Index index = new Index(List.of("t1", "x", "t2", "y", "t3", "z", "t4"));
        ThreadListing.Page first = ThreadListing.page(index, null, 2, "t", ThreadListing.SEARCH_BUDGET);
        assertEquals(List.of("t1", "t2"), keys(first));
        assertEquals("t2", first.nextAfter());
        ThreadListing.Page second = ThreadListing.page(index, first.nextAfter(), 2, "t", ThreadListing.SEARCH_BUDGET);
        assertEquals(List.of("t3", "t4"), keys(second));
        assertNull(second.nextAfter(), "t4 is the last key: the scan reached the end");
    }

    @Test
    void aSearchExaminesAtMostItsBudgetAndGoesOnWhereItStopped() {
        List<String> many = new ArrayList<>(IntStream.range(0, 2_500).mapToObj(i -> String.format("k%05d", i)).toList());
        many.add("needle-1");
        many.add("z-needle-2");
        Index index = new Index(many);
        ThreadListing.Page first = ThreadListing.page(index, null, 50, "needle", 1_000);
        assertEquals(List.of(), keys(first), "nothing among the first 1000 keys");
        assertEquals("k00999", first.nextAfter(), "the last key examined");
        assertTrue(index.rowsRead <= 1_000, "bounded: " + index.rowsRead);
        assertTrue(index.reads >= 2, "read in chunks of " + ThreadListing.CHUNK);

        String cursor = first.nextAfter();
        List<String> found = new ArrayList<>();
        int calls = 1;
        while (cursor != null) {
            ThreadListing.Page next = ThreadListing.page(index, cursor, 50, "needle", 1_000);
            found.addAll(keys(next));
            cursor = next.nextAfter();
            calls++;
        }
        assertEquals(List.of("needle-1", "z-needle-2"), found);
        assertEquals(3, calls, "2502 keys, 1000 a call");
        assertEquals(2_502, index.rowsRead, "every key examined once over the calls");
    }

    @Test
    void aPageIsAtLeastOneAndTheBudgetPositive() {
        Index index = new Index(List.of("a"));
        assertThrows(IllegalArgumentException.class, () -> ThreadListing.page(index, null, 0, null, 10));
        assertThrows(IllegalArgumentException.class, () -> ThreadListing.page(index, null, 1, "a", 0));
    }
}
