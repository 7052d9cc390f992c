package dev.switchboard.core.thread;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A page of a user's threads in key order after a key (keyset paging), optionally only those whose
 * key contains a search text, in any case. The rows come from an index range read in chunks
 * ({@link Rows}); the search is a case-insensitive substring test made here, in Java, rather than in
 * SQL: no index serves a substring, and a prefix range on a key would depend on the database's
 * collation. So that one call stays cheap however many threads there are, a search examines at
 * most {@code budget} rows: when it runs out before the page is full, the page holds what it found
 * (maybe nothing) and {@code nextAfter} is the last key it examined, where the next call goes on.
 * A page is therefore complete only when {@code nextAfter} is null.
 */
public final class ThreadListing {

    /** The rows a search examines in one call (about a few milliseconds of an index range). */
    public static final int SEARCH_BUDGET = 10_000;
    /** The longest search text: a thread key is at most 512 characters, so a longer one finds nothing. */
    public static final int MAX_QUERY_LENGTH = 512;
    /** Rows read per statement while searching. */
    static final int CHUNK = 500;

    /** Up to {@code limit} of the threads listed (internal ones or not), keys after {@code afterKey}, by key. */
    @FunctionalInterface
    public interface Rows {
        List<ThreadRow> after(String afterKey, int limit);
    }

    /** The threads of a page and the key to continue after; null when nothing follows. */
    public record Page(List<ThreadRow> threads, String nextAfter) {
    }

    private ThreadListing() {
    }

    /** The search text as compared: stripped and lower-cased; null for none (absent or blank). */
    public static String needle(String query) {
        if (query == null || query.isBlank()) {
            return null;
        }
        return query.strip().toLowerCase(Locale.ROOT);
    }

    /** True when the key contains the needle, ignoring case (null needle: every key). */
    public static boolean matches(String threadKey, String needle) {
        return needle == null || threadKey.toLowerCase(Locale.ROOT).contains(needle);
    }

    /**
     * The page of at most {@code limit} threads after {@code after} (null: from the first) whose
     * keys contain {@code needle} (see {@link #needle}; null: all), examining at most {@code budget}
     * rows when searching.
     */
    public static Page page(Rows rows, String after, int limit, String needle, int budget) {
        if (limit < 1 || budget < 1) {
            throw new IllegalArgumentException("limit and budget must be positive");
        }
        String cursor = after == null ? "" : after;
        if (needle == null) { // every row matches: one read, one row more to know whether more follow
            List<ThreadRow> read = rows.after(cursor, limit + 1);
            boolean more = read.size() > limit;
            List<ThreadRow> page = more ? List.copyOf(read.subList(0, limit)) : List.copyOf(read);
            return new Page(page, more ? page.get(limit - 1).threadKey() : null);
        }
        List<ThreadRow> found = new ArrayList<>();
        int examined = 0;
        while (examined < budget) {
            int chunk = Math.min(CHUNK, budget - examined);
            List<ThreadRow> read = rows.after(cursor, chunk);
            for (ThreadRow row : read) {
                examined++;
                cursor = row.threadKey();
                if (matches(row.threadKey(), needle)) {
                    if (found.size() == limit) { // one more match: the page is full and more follow
                        return new Page(List.copyOf(found), found.get(limit - 1).threadKey());
                    }
                    found.add(row);
                }
            }
            if (read.size() < chunk) {
                return new Page(List.copyOf(found), null); // the end of the user's threads
            }
        }
        return new Page(List.copyOf(found), cursor); // the budget is spent: go on after the last row examined
    }
}
