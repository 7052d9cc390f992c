package dev.switchboard.core.history;

import dev.switchboard.core.json.Jsons;
import jakarta.json.JsonArray;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Which of a thread's stored items its engine is given: closed ranges of item seqs, plus every item
 * from {@code openFrom} on (the items runs append). A thread without a window sees all its items.
 * Undo, redo and compaction change the window, never the stored history, so what a person reads
 * stays whole while the model's context is exactly the one chosen.
 *
 * @param ranges disjoint, ascending, not adjacent
 * @param openFrom the first seq of the open tail; {@link #CLOSED} for a window without one (a checkpoint)
 * @param head a message the engine is given before the window's items — the summary of what a
 *        compaction left out (decision I10) — or null
 */
public record ContextWindow(List<Range> ranges, long openFrom, JsonObject head) {

    /** {@code openFrom} of a window that takes no new items. */
    public static final long CLOSED = Long.MAX_VALUE;

    /** Every item. */
    public static final ContextWindow ALL = new ContextWindow(List.of(), 0, null);

    /** The source of a run that summarises a thread for a compaction: its engine is given no history. */
    public static final String SUMMARY_SOURCE = "chat:compact";

    public ContextWindow(List<Range> ranges, long openFrom) {
        this(ranges, openFrom, null);
    }

    /** The seqs {@code first} to {@code last}, both included. */
    public record Range(long first, long last) {
        public Range {
            if (first > last) {
                throw new IllegalArgumentException("empty range " + first + ".." + last);
            }
        }
    }

    public ContextWindow {
        ranges = normalised(ranges);
    }

    public boolean contains(long seq) {
        return seq >= openFrom || ranges.stream().anyMatch(r -> seq >= r.first() && seq <= r.last());
    }

    /** This window as it stood once the item {@code lastSeq} was the newest: its open tail closed there. */
    public ContextWindow closedAt(long lastSeq) {
        if (openFrom == CLOSED || openFrom > lastSeq) {
            return new ContextWindow(ranges, CLOSED, head);
        }
        List<Range> closed = new ArrayList<>(ranges);
        closed.add(new Range(openFrom, lastSeq));
        return new ContextWindow(closed, CLOSED, head);
    }

    /** These ranges, taking every item from {@code seq} on. */
    public ContextWindow openFrom(long seq) {
        return new ContextWindow(ranges, seq, head);
    }

    /** This window with {@code message} given before its items (null: none). */
    public ContextWindow withHead(JsonObject message) {
        return new ContextWindow(ranges, openFrom, message);
    }

    /** Only the given seqs of this window (compaction keeps the newest turns), and every item after {@code lastSeq}. */
    public ContextWindow keeping(Set<Long> seqs, long lastSeq) {
        List<Range> kept = new ArrayList<>();
        seqs.stream().filter(this::contains).sorted().forEach(seq -> kept.add(new Range(seq, seq)));
        return new ContextWindow(kept, lastSeq + 1, head);
    }

    public JsonObject toJson() {
        JsonArrayBuilder list = Jsons.createArrayBuilder();
        ranges.forEach(r -> list.add(Jsons.createArrayBuilder().add(r.first()).add(r.last())));
        var json = Jsons.createObjectBuilder().add("ranges", list);
        if (openFrom != CLOSED) {
            json.add("open_from", openFrom);
        }
        if (head != null) {
            json.add("head", head);
        }
        return json.build();
    }

    public static ContextWindow fromJson(JsonObject json) {
        List<Range> ranges = new ArrayList<>();
        for (JsonValue r : json.getJsonArray("ranges")) {
            JsonArray pair = r.asJsonArray();
            ranges.add(new Range(pair.getJsonNumber(0).longValue(), pair.getJsonNumber(1).longValue()));
        }
        return new ContextWindow(ranges, json.containsKey("open_from") ? json.getJsonNumber("open_from").longValue()
                : CLOSED, json.containsKey("head") ? json.getJsonObject("head") : null);
    }

    /** Sorted, with overlapping and adjacent ranges merged. */
    private static List<Range> normalised(List<Range> ranges) {
        List<Range> sorted = new ArrayList<>(ranges);
        sorted.sort((a, b) -> Long.compare(a.first(), b.first()));
        List<Range> merged = new ArrayList<>();
        for (Range r : sorted) {
            Range last = merged.isEmpty() ? null : merged.get(merged.size() - 1);
            if (last != null && r.first() <= last.last() + 1) {
                merged.set(merged.size() - 1, new Range(last.first(), Math.max(last.last(), r.last())));
            } else {
                merged.add(r);
            }
        }
        return List.copyOf(merged);
    }
}
