package dev.switchboard.core.run;

import dev.switchboard.core.clock.InstanceClock;
import dev.switchboard.core.history.StoredItem;
import dev.switchboard.core.history.ThreadItems;
import dev.switchboard.core.history.ThreadShares;
import dev.switchboard.core.thread.ThreadDirectory;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import java.util.List;
import java.util.Optional;

/**
 * jagc's {@code share}: read-only links to a thread's transcript, served by this server — no
 * outside service. A link is unguessable (its token, {@code ShareTokens}), shows the thread's items
 * up to the newest when it was made (nothing said later), needs no token of its own to open, and
 * stops opening once its thread's links are revoked.
 */
@Stateless
public class Transcripts {

    /** The most items a transcript page shows: the latest ones, with how many earlier were left out. */
    public static final int MAX_ITEMS = 2_000;

    @Inject
    ThreadDirectory threads;

    @Inject
    ThreadItems items;

    @Inject
    ThreadShares shares;

    @Inject
    InstanceClock clock;

    /** What a link shows: the thread's key, when it was shared, its items (the latest) and how many earlier ones are not shown. */
    public record Transcript(String threadKey, long sharedAt, List<JsonObject> items, long omitted) {
    }

    /** A new link to the user's thread; its token, or empty when the user has no such thread. */
    public Optional<String> share(String userKey, String threadKey) {
        return threads.find(userKey, threadKey)
                .map(id -> shares.create(userKey, id, threadKey, items.lastSeq(id), clock.millis()));
    }

    /** Revokes every link to the user's thread; how many there were, or empty when the user has no such thread. */
    public Optional<Integer> revoke(String userKey, String threadKey) {
        return threads.find(userKey, threadKey).map(shares::revoke);
    }

    /** What the link of {@code token} shows; empty for a token that opens nothing (never made, revoked, malformed). */
    public Optional<Transcript> open(String token) {
        return shares.find(token).map(share -> {
            List<StoredItem> shown = items.recentUpTo(share.threadId(), share.upToSeq(), MAX_ITEMS);
            long all = shown.size() < MAX_ITEMS ? shown.size() : items.countUpTo(share.threadId(), share.upToSeq());
            return new Transcript(share.threadKey(), share.createdAt(), shown.stream().map(StoredItem::item).toList(),
                    all - shown.size());
        });
    }
}
