package dev.switchboard.core.turn;

import dev.switchboard.core.history.StoredItem;
import java.util.List;

/** A page of a thread's history, oldest first; {@code nextAfterSeq} is null on the last page. */
public record HistoryPage(List<StoredItem> items, Long nextAfterSeq) {
}
