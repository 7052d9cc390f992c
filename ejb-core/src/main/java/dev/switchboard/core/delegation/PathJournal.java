package dev.switchboard.core.delegation;

import dev.switchboard.core.delegation.PathRegistry.PathRow;
import dev.switchboard.core.json.Jsons;
import dev.switchboard.core.notify.Outbox;
import dev.switchboard.core.sql.Statements;
import dev.switchboard.core.sql.Store;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonObjectBuilder;
import java.util.List;
import java.util.UUID;

/**
 * What happens on a tree's paths, told twice in the transaction that makes it happen: to operators
 * in the journal ({@code path_journal}, with the paths' segments), and to the outer thread's stream
 * as a {@code delegation/hop} notification, which names only opaque ids and listeners.
 */
@Store("path_journal")
@ApplicationScoped
public class PathJournal {

    private static final String JOURNAL = "INSERT INTO path_journal (msg_id, session_root, uuid, segments, from_name,"
            + " to_name, payload_type, status, reason, ts) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";

    @Inject
    Statements statements;

    @Inject
    Outbox outbox;

    public PathJournal() {
    }

    /** Built outside the container (the in-process tests). */
    public PathJournal(Statements statements, Outbox outbox) {
        this.statements = statements;
        this.outbox = outbox;
    }

    /** A journal entry of the tree of {@code root}: {@code status} on the path {@code uuid}. */
    public void record(PathRow root, String uuid, List<String> segments, String from, String to,
            String payloadType, String status, String reason, long now) {
        statements.updateOne(JOURNAL, s -> {
            s.setString(1, UUID.randomUUID().toString());
            s.setString(2, root.sessionRoot());
            s.setString(3, uuid);
            s.setString(4, PathRegistry.segmentsJson(segments));
            s.setString(5, from);
            s.setString(6, to == null ? null : PathNames.clip(to));
            s.setString(7, payloadType);
            s.setString(8, status);
            s.setString(9, reason);
            s.setLong(10, now);
        }, "journalling " + status + " on path " + uuid);
    }

    /** A hop on the outer thread's stream: opaque ids and listener names, never a readable path. */
    public void hop(PathRow root, String kind, String pathId, String parentId, String from, String to,
            String code) {
        JsonObjectBuilder params = Jsons.createObjectBuilder().add("run_id", root.rootRunId()).add("kind", kind)
                .add("path_id", pathId).add("thread_key", root.threadKey());
        if (parentId != null) {
            params.add("parent_path_id", parentId);
        }
        if (from != null) {
            params.add("from", from);
        }
        if (to != null) {
            params.add("to", to);
        }
        if (code != null) {
            params.add("code", code);
        }
        outbox.append(root.userKey(), root.threadKey(), "delegation/hop", params.build());
    }

    /** Retention: deletes up to {@code limit} of the oldest entries written before {@code cutoff}; returns how many. */
    public int deleteOldest(long cutoff, int limit) {
        List<String> ids = statements.query("SELECT msg_id FROM path_journal WHERE ts < ? ORDER BY ts LIMIT ?", s -> {
            s.setLong(1, cutoff);
            s.setInt(2, limit);
        }, rs -> rs.getString(1), "finding the aged delegation journal");
        return statements.updateIn("DELETE FROM path_journal WHERE msg_id IN (%s)", ids, "deleting the aged delegation journal");
    }
}
