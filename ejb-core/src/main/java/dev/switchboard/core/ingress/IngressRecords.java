package dev.switchboard.core.ingress;

import dev.switchboard.core.runtime.ProcessedEvents;
import dev.switchboard.core.sql.Statements;
import dev.switchboard.core.sql.Store;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * The ingress records — events, the decisions taken on them, the actions that followed — and every
 * statement on them: the pipeline's writes (an event journalled, settled, held and released, a
 * decision, an action), what its rules read (held keys, held ticks, the event a run was handed),
 * the records API's pages, each rendered in Holon's record shape (holon-serve spec §14) plus the
 * correlation keys an operator follows ({@code session_key}, i.e. an announce's
 * {@code source_session_key}, {@code run_id} and {@code turn_id}) and always scoped to one user,
 * and the deletes of records past their retention ({@link IngressRecordJson} renders the pages' records).
 * Statements run in the caller's transaction.
 */
@Store({"ingress_events", "ingress_decisions", "ingress_actions"})
@Stateless
public class IngressRecords {

    private static final String EVENT_COLUMNS = "user_key, event_id, source, type, repo, dedupe_key, session_key, status,"
            + " run_id, turn_id, envelope, received_at";
    private static final String INSERT_EVENT = "INSERT INTO ingress_events (" + EVENT_COLUMNS
            + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
    private static final String EXISTS = "SELECT 1 FROM ingress_events WHERE user_key = ? AND event_id = ?";
    private static final String SETTLE = "UPDATE ingress_events SET status = ?, run_id = ?, turn_id = ?"
            + " WHERE user_key = ? AND event_id = ?";
    private static final String FOR_UPDATE = "SELECT " + EVENT_COLUMNS + " FROM ingress_events"
            + " WHERE user_key = ? AND event_id = ? FOR UPDATE";
    private static final String HELD = "SELECT " + EVENT_COLUMNS + " FROM ingress_events WHERE user_key = ?"
            + " AND status = 'deferred' ORDER BY received_at, event_id FETCH FIRST ? ROWS ONLY";
    private static final String HELD_KEYS = "SELECT dedupe_key FROM ingress_events WHERE user_key = ? AND status = 'deferred'"
            + " AND (dedupe_key = ? OR session_key = ?)";
    private static final String HELD_TICK = "SELECT 1 FROM ingress_events WHERE user_key = ? AND status = 'deferred'"
            + " AND source = 'timer' AND repo = ? FETCH FIRST 1 ROWS ONLY";
    private static final String USERS_WITH_HELD = "SELECT DISTINCT user_key FROM ingress_events WHERE status = 'deferred'";
    private static final String ACCEPTED_FOR_RUN = "SELECT " + EVENT_COLUMNS + " FROM ingress_events"
            + " WHERE run_id = ? AND status = 'accepted'";
    private static final String INSERT_DECISION = "INSERT INTO ingress_decisions (decision_id, user_key, event_id, type,"
            + " reason, skipped, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)";
    private static final String INSERT_ACTION = "INSERT INTO ingress_actions (action_id, user_key, event_id, status,"
            + " message, run_id, started_at, ended_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)";
    /** An event's decisions and actions go with it: when it was received before {@code ?} and is not held. */
    private static final String OF_FORGOTTEN_EVENT = " WHERE EXISTS (SELECT 1 FROM ingress_events e WHERE e.user_key = %1$s.user_key"
            + " AND e.event_id = %1$s.event_id AND e.received_at < ? AND e.status <> 'deferred')";
    private static final String FORGET_ACTIONS = "DELETE FROM ingress_actions"
            + String.format(OF_FORGOTTEN_EVENT, "ingress_actions");
    private static final String FORGET_DECISIONS = "DELETE FROM ingress_decisions"
            + String.format(OF_FORGOTTEN_EVENT, "ingress_decisions");
    private static final String FORGET_EVENTS = "DELETE FROM ingress_events WHERE received_at < ? AND status <> 'deferred'";
    private static final String ACCEPTED = "SELECT count(*), max(received_at) FROM ingress_events"
            + " WHERE user_key = ? AND status = 'accepted'";
    private static final String PREFIXED_EVENT_COLUMNS = "e." + EVENT_COLUMNS.replace(", ", ", e.");

    @Inject
    Statements statements;

    public IngressRecords() {
    }

    /** Built outside the container (the in-process tests) with its statements alone. */
    IngressRecords(Statements statements) {
        this.statements = statements;
    }

    // ------------------------------------------------------------------ the pipeline's rows

    /** Whether the user has an event with this id. */
    public boolean exists(String userKey, String eventId) {
        return !statements.query(EXISTS, s -> {
            s.setString(1, userKey);
            s.setString(2, eventId);
        }, rs -> true, "looking for an ingress event").isEmpty();
    }

    /** Journals {@code event} as it stands (its decisions and actions name it, so it comes first). */
    public void insert(IngressEvent event) {
        statements.updateOne(INSERT_EVENT, s -> {
            s.setString(1, event.userKey());
            s.setString(2, event.eventId());
            s.setString(3, event.source());
            s.setString(4, event.type());
            s.setString(5, event.repo());
            s.setString(6, event.dedupeKey());
            s.setString(7, event.sessionKey());
            s.setString(8, event.status());
            s.setString(9, event.runId());
            s.setString(10, event.turnId());
            s.setString(11, event.envelope());
            s.setLong(12, event.receivedAt());
        }, "journalling an ingress event");
    }

    /** The event's outcome: {@code accepted} into run {@code runId}, a {@code duplicate} of it, or {@code deferred}. */
    public IngressEvent settle(IngressEvent event, String status, String runId, String turnId) {
        statements.updateOne(SETTLE, s -> {
            s.setString(1, status);
            s.setString(2, runId);
            s.setString(3, turnId);
            s.setString(4, event.userKey());
            s.setString(5, event.eventId());
        }, "settling an ingress event");
        return event.settled(status, runId, turnId);
    }

    /** The user's event, locked for this transaction (a concurrent release or requeue waits for it); empty when none. */
    public Optional<IngressEvent> lock(String userKey, String eventId) {
        return statements.query(FOR_UPDATE, s -> {
            s.setString(1, userKey);
            s.setString(2, eventId);
        }, IngressRecords::readEvent, "locking an ingress event").stream().findFirst();
    }

    /** Up to {@code max} of the user's held events, oldest first (unlocked: lock each before handing it off). */
    public List<IngressEvent> held(String userKey, int max) {
        return statements.query(HELD, s -> {
            s.setString(1, userKey);
            s.setInt(2, max);
        }, IngressRecords::readEvent, "reading held ingress events");
    }

    /** The dedupe keys of the user's held events that have {@code dedupeKey} or are in the lane {@code sessionKey}. */
    public List<String> heldKeys(String userKey, String dedupeKey, String sessionKey) {
        return statements.query(HELD_KEYS, s -> {
            s.setString(1, userKey);
            s.setString(2, dedupeKey == null ? "" : dedupeKey);
            s.setString(3, sessionKey);
        }, rs -> rs.getString(1), "reading held dedupe keys");
    }

    /** Whether a timer tick of {@code repo} is held for the user already. */
    public boolean tickHeld(String userKey, String repo) {
        return !statements.query(HELD_TICK, s -> {
            s.setString(1, userKey);
            s.setString(2, repo);
        }, rs -> true, "looking for a held timer tick").isEmpty();
    }

    /** The users that have held events (for the sweep after a crash between resume and release). */
    public List<String> usersWithHeldEvents() {
        return statements.query(USERS_WITH_HELD, s -> { }, rs -> rs.getString(1), "finding users with held events");
    }

    /** The event handed off to run {@code runId}, if one was. */
    public Optional<IngressEvent> acceptedInto(String runId) {
        return statements.query(ACCEPTED_FOR_RUN, s -> s.setString(1, runId), IngressRecords::readEvent,
                "finding the event of a run").stream().findFirst();
    }

    /** Records a decision on the event. */
    public void decide(String decisionId, IngressEvent event, String type, String reason, boolean skipped, long at) {
        statements.updateOne(INSERT_DECISION, s -> {
            s.setString(1, decisionId);
            s.setString(2, event.userKey());
            s.setString(3, event.eventId());
            s.setString(4, type);
            s.setString(5, reason);
            s.setBoolean(6, skipped);
            s.setLong(7, at);
        }, "recording an ingress decision");
    }

    /**
     * Records an action on the event: its hand-off to run {@code runId} ({@code accepted}, which ends
     * as it starts: {@code endedAt} null) or the final outcome of that run (H9: a second action).
     */
    public void act(String actionId, IngressEvent event, String status, String message, String runId, long startedAt,
            Long endedAt) {
        statements.updateOne(INSERT_ACTION, s -> {
            s.setString(1, actionId);
            s.setString(2, event.userKey());
            s.setString(3, event.eventId());
            s.setString(4, status);
            s.setString(5, message);
            s.setString(6, runId);
            s.setLong(7, startedAt);
            Statements.setLong(s, 8, endedAt);
        }, "recording an ingress action");
    }

    private static IngressEvent readEvent(ResultSet rs) throws SQLException {
        return readEvent(rs, 1);
    }

    // ------------------------------------------------------------------ retention and counts

    /**
     * Deletes the records (events, their decisions and actions) of events received before
     * {@code before} (epoch ms); held events are kept whatever their age. Returns the events deleted.
     */
    public int forget(long before) {
        for (String sql : List.of(FORGET_ACTIONS, FORGET_DECISIONS)) {
            statements.update(sql, s -> s.setLong(1, before), "forgetting aged ingress records");
        }
        return statements.update(FORGET_EVENTS, s -> s.setLong(1, before), "forgetting aged ingress events");
    }

    /** How many of the user's events were accepted (handed off to a lane), and when the newest of them arrived. */
    public ProcessedEvents.Count accepted(String userKey) {
        return statements.query(ACCEPTED, s -> s.setString(1, userKey),
                rs -> new ProcessedEvents.Count(rs.getLong(1), Statements.getLong(rs, 2)), "counting accepted events").get(0);
    }

    // ------------------------------------------------------------------ the records API's pages

    /** A decision's row, with the event it is on. */
    record Decision(String id, String eventId, String type, String reason, boolean skipped, long createdAt,
            IngressEvent event) {
    }

    /** An action's row, with the event it is on ({@code endedAt} null: it ended as it started). */
    record Action(String id, String eventId, String status, String message, String runId, long startedAt,
            Long endedAt, IngressEvent event) {
    }

    public RecordPage events(String userKey, RecordQuery q) {
        Where w = new Where(userKey, q, "e.received_at", "e.event_id");
        w.eq("e.status", q.status());
        w.eq("e.run_id", q.runId());
        List<IngressEvent> found = statements.query("SELECT " + PREFIXED_EVENT_COLUMNS + " FROM ingress_events e WHERE "
                + w.text() + " ORDER BY e.received_at, e.event_id FETCH FIRST ? ROWS ONLY", w.binder(q.limit() + 1),
                IngressRecords::readEvent, "reading a page of ingress events");
        return page(found, q.limit(), IngressRecordJson::event, e -> new RecordQuery.Cursor(e.receivedAt(), e.eventId()));
    }

    public RecordPage decisions(String userKey, RecordQuery q) {
        Where w = new Where(userKey, q, "d.created_at", "d.decision_id");
        w.eq("e.run_id", q.runId());
        List<Decision> found = statements.query("SELECT d.decision_id, d.event_id, d.type, d.reason, d.skipped,"
                + " d.created_at, " + PREFIXED_EVENT_COLUMNS + " FROM ingress_decisions d JOIN ingress_events e"
                + " ON d.user_key = e.user_key AND d.event_id = e.event_id WHERE " + w.text()
                + " ORDER BY d.created_at, d.decision_id FETCH FIRST ? ROWS ONLY", w.binder(q.limit() + 1),
                rs -> new Decision(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4), rs.getBoolean(5),
                        rs.getLong(6), readEvent(rs, 7)), "reading a page of ingress decisions");
        return page(found, q.limit(), IngressRecordJson::decision, d -> new RecordQuery.Cursor(d.createdAt(), d.id()));
    }

    public RecordPage actions(String userKey, RecordQuery q) {
        Where w = new Where(userKey, q, "a.started_at", "a.action_id");
        w.eq("a.status", q.status());
        w.eq("a.run_id", q.runId());
        List<Action> found = statements.query("SELECT a.action_id, a.event_id, a.status, a.message, a.run_id,"
                + " a.started_at, a.ended_at, " + PREFIXED_EVENT_COLUMNS + " FROM ingress_actions a JOIN ingress_events e"
                + " ON a.user_key = e.user_key AND a.event_id = e.event_id WHERE " + w.text()
                + " ORDER BY a.started_at, a.action_id FETCH FIRST ? ROWS ONLY", w.binder(q.limit() + 1),
                rs -> new Action(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4), rs.getString(5),
                        rs.getLong(6), Statements.getLong(rs, 7), readEvent(rs, 8)), "reading a page of ingress actions");
        return page(found, q.limit(), IngressRecordJson::action, a -> new RecordQuery.Cursor(a.startedAt(), a.id()));
    }

    /** The event whose columns ({@code EVENT_COLUMNS}) start at {@code first} (1-based) of a row. */
    private static IngressEvent readEvent(ResultSet rs, int first) throws SQLException {
        int i = first;
        return new IngressEvent(rs.getString(i), rs.getString(i + 1), rs.getString(i + 2), rs.getString(i + 3),
                rs.getString(i + 4), rs.getString(i + 5), rs.getString(i + 6), rs.getString(i + 7), rs.getString(i + 8),
                rs.getString(i + 9), rs.getString(i + 10), rs.getLong(i + 11));
    }

    /** The first {@code limit} of {@code found} (queried with one extra row), and a cursor when there are more. */
    private static <T> RecordPage page(List<T> found, int limit, Function<T, JsonObject> render,
            Function<T, RecordQuery.Cursor> cursorOf) {
        List<T> shown = found.subList(0, Math.min(limit, found.size()));
        RecordQuery.Cursor next = found.size() > limit ? cursorOf.apply(shown.get(shown.size() - 1)) : null;
        return new RecordPage(shown.stream().map(render).toList(), next);
    }

    /** The shared filter: the user, the event's keys, the time window and the cursor; its values bound in order. */
    private static final class Where {
        private final StringBuilder text = new StringBuilder("e.user_key = ?");
        private final List<Object> values = new ArrayList<>();

        Where(String userKey, RecordQuery q, String timeColumn, String idColumn) {
            values.add(userKey);
            eq("e.event_id", q.eventId());
            eq("e.session_key", q.sessionKey());
            eq("e.turn_id", q.turnId());
            eq("e.dedupe_key", q.dedupeKey());
            eq("e.source", q.source());
            if (q.since() != null) {
                text.append(" AND ").append(timeColumn).append(" >= ?");
                values.add(q.since());
            }
            if (q.until() != null) {
                text.append(" AND ").append(timeColumn).append(" < ?");
                values.add(q.until());
            }
            if (q.after() != null) {
                text.append(" AND (").append(timeColumn).append(" > ? OR (").append(timeColumn)
                        .append(" = ? AND ").append(idColumn).append(" > ?))");
                values.add(q.after().time());
                values.add(q.after().time());
                values.add(q.after().id());
            }
        }

        void eq(String column, String value) {
            if (value != null) {
                text.append(" AND ").append(column).append(" = ?");
                values.add(value);
            }
        }

        String text() {
            return text.toString();
        }

        /** Binds the filter's values, then {@code rows} for the page's {@code FETCH FIRST ? ROWS}. */
        Statements.Binder binder(int rows) {
            return s -> {
                int i = 1;
                for (Object v : values) {
                    bind(s, i++, v);
                }
                s.setInt(i, rows);
            };
        }

        private static void bind(PreparedStatement s, int index, Object value) throws SQLException {
            if (value instanceof Long l) {
                s.setLong(index, l);
            } else {
                s.setString(index, (String) value);
            }
        }
    }
}
