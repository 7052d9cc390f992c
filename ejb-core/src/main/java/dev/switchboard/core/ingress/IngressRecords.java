package dev.switchboard.core.ingress;

import dev.switchboard.core.json.Jsons;
import dev.switchboard.core.runtime.ProcessedEvents;
import dev.switchboard.core.sql.Statements;
import dev.switchboard.core.sql.Store;
import dev.switchboard.persistence.ingress.ActionRecord;
import dev.switchboard.persistence.ingress.DecisionRecord;
import dev.switchboard.persistence.ingress.IngressEventRecord;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonReader;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.persistence.TypedQuery;
import java.io.StringReader;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Reads the ingress records — events, decisions, actions — a page at a time, each rendered in
 * Holon's record shape (holon-serve spec §14) plus the correlation keys an operator follows:
 * {@code session_key} (the lane, i.e. an announce's {@code source_session_key}), {@code run_id}
 * and {@code turn_id}. Always scoped to one user. And forgets the records past their retention.
 */
@Store({"ingress_events", "ingress_decisions", "ingress_actions"})
@Stateless
public class IngressRecords {

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

    @PersistenceContext(unitName = "switchboard")
    EntityManager em;

    @Inject
    Statements statements;

    public IngressRecords() {
    }

    /** Built outside the container (the in-process tests) with its statements alone: its pages need the container. */
    IngressRecords(Statements statements) {
        this.statements = statements;
    }

    /**
     * Deletes the records (events, their decisions and actions) of events received before
     * {@code before} (epoch ms); held events are kept whatever their age. Returns the events deleted.
     * Runs in the caller's transaction.
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

    public RecordPage events(String userKey, RecordQuery q) {
        Where w = new Where(userKey, q, "e.receivedAt", "e.eventId");
        w.eq("e.status", "status", q.status());
        w.eq("e.runId", "runId", q.runId());
        List<IngressEventRecord> found = w.bind(em.createQuery("SELECT e FROM IngressEventRecord e WHERE "
                + w.text() + " ORDER BY e.receivedAt, e.eventId", IngressEventRecord.class))
                .setMaxResults(q.limit() + 1).getResultList();
        return page(found, q.limit(), IngressRecords::event,
                e -> new RecordQuery.Cursor(e.getReceivedAt(), e.getEventId()));
    }

    public RecordPage decisions(String userKey, RecordQuery q) {
        Where w = new Where(userKey, q, "d.createdAt", "d.decisionId");
        w.eq("e.runId", "runId", q.runId());
        List<Object[]> found = w.bind(em.createQuery("SELECT d, e FROM DecisionRecord d, IngressEventRecord e"
                + " WHERE d.userKey = e.userKey AND d.eventId = e.eventId AND " + w.text() + " ORDER BY d.createdAt, d.decisionId", Object[].class))
                .setMaxResults(q.limit() + 1).getResultList();
        return page(found, q.limit(), row -> decision((DecisionRecord) row[0], (IngressEventRecord) row[1]),
                row -> new RecordQuery.Cursor(((DecisionRecord) row[0]).getCreatedAt(),
                        ((DecisionRecord) row[0]).getDecisionId()));
    }

    public RecordPage actions(String userKey, RecordQuery q) {
        Where w = new Where(userKey, q, "a.startedAt", "a.actionId");
        w.eq("a.status", "status", q.status());
        w.eq("a.runId", "runId", q.runId());
        List<Object[]> found = w.bind(em.createQuery("SELECT a, e FROM ActionRecord a, IngressEventRecord e"
                + " WHERE a.userKey = e.userKey AND a.eventId = e.eventId AND " + w.text() + " ORDER BY a.startedAt, a.actionId", Object[].class))
                .setMaxResults(q.limit() + 1).getResultList();
        return page(found, q.limit(), row -> action((ActionRecord) row[0], (IngressEventRecord) row[1]),
                row -> new RecordQuery.Cursor(((ActionRecord) row[0]).getStartedAt(),
                        ((ActionRecord) row[0]).getActionId()));
    }

    /** The first {@code limit} of {@code found} (queried with one extra row), and a cursor when there are more. */
    private static <T> RecordPage page(List<T> found, int limit, Function<T, JsonObject> render,
            Function<T, RecordQuery.Cursor> cursorOf) {
        List<T> shown = found.subList(0, Math.min(limit, found.size()));
        RecordQuery.Cursor next = found.size() > limit ? cursorOf.apply(shown.get(shown.size() - 1)) : null;
        return new RecordPage(shown.stream().map(render).toList(), next);
    }

    /** The envelope as received (§8), with the event's status and correlation keys. */
    static JsonObject event(IngressEventRecord e) {
        JsonObject envelope;
        try (JsonReader reader = Jsons.createReader(new StringReader(e.getEnvelope()))) {
            envelope = reader.readObject();
        }
        JsonObjectBuilder b = Jsons.createObjectBuilder(envelope)
                .add("status", e.getStatus())
                .add("session_key", e.getSessionKey())
                .add("received_at", time(e.getReceivedAt()));
        correlate(b, e);
        return b.build();
    }

    /** {@code {id, event_id, type, reason?, skipped?, created_at}} plus correlation keys. */
    static JsonObject decision(DecisionRecord d, IngressEventRecord e) {
        JsonObjectBuilder b = Jsons.createObjectBuilder()
                .add("id", d.getDecisionId())
                .add("event_id", d.getEventId())
                .add("type", d.getType());
        if (d.getReason() != null) {
            b.add("reason", d.getReason());
        }
        if (d.isSkipped()) {
            b.add("skipped", true);
        }
        b.add("created_at", time(d.getCreatedAt())).add("session_key", e.getSessionKey());
        correlate(b, e);
        return b.build();
    }

    /**
     * {@code {id, event_id, status, message?, started_at, ended_at}} plus correlation keys; an
     * {@code accepted} hand-off ends when it starts, as in Holon.
     */
    static JsonObject action(ActionRecord a, IngressEventRecord e) {
        JsonObjectBuilder b = Jsons.createObjectBuilder()
                .add("id", a.getActionId())
                .add("event_id", a.getEventId())
                .add("status", a.getStatus());
        if (a.getMessage() != null) {
            b.add("message", a.getMessage());
        }
        b.add("started_at", time(a.getStartedAt()))
                .add("ended_at", time(a.getEndedAt() == null ? a.getStartedAt() : a.getEndedAt()))
                .add("session_key", e.getSessionKey());
        if (a.getRunId() != null) {
            b.add("run_id", a.getRunId());
        }
        if (e.getTurnId() != null && a.getRunId() != null && a.getRunId().equals(e.getRunId())) {
            b.add("turn_id", e.getTurnId());
        }
        return b.build();
    }

    private static void correlate(JsonObjectBuilder b, IngressEventRecord e) {
        if (e.getRunId() != null) {
            b.add("run_id", e.getRunId());
        }
        if (e.getTurnId() != null) {
            b.add("turn_id", e.getTurnId());
        }
    }

    private static String time(long epochMillis) {
        return Instant.ofEpochMilli(epochMillis).toString();
    }

    /** The shared filter: the user, the event's keys, the time window and the cursor. */
    private static final class Where {
        private final StringBuilder text = new StringBuilder("e.userKey = :userKey");
        private final Map<String, Object> params = new LinkedHashMap<>();

        Where(String userKey, RecordQuery q, String timeColumn, String idColumn) {
            params.put("userKey", userKey);
            eq("e.eventId", "eventId", q.eventId());
            eq("e.sessionKey", "sessionKey", q.sessionKey());
            eq("e.turnId", "turnId", q.turnId());
            eq("e.dedupeKey", "dedupeKey", q.dedupeKey());
            eq("e.source", "source", q.source());
            if (q.since() != null) {
                text.append(" AND ").append(timeColumn).append(" >= :since");
                params.put("since", q.since());
            }
            if (q.until() != null) {
                text.append(" AND ").append(timeColumn).append(" < :until");
                params.put("until", q.until());
            }
            if (q.after() != null) {
                text.append(" AND (").append(timeColumn).append(" > :afterTime OR (").append(timeColumn)
                        .append(" = :afterTime AND ").append(idColumn).append(" > :afterId))");
                params.put("afterTime", q.after().time());
                params.put("afterId", q.after().id());
            }
        }

        void eq(String column, String name, String value) {
            if (value != null) {
                text.append(" AND ").append(column).append(" = :").append(name);
                params.put(name, value);
            }
        }

        String text() {
            return text.toString();
        }

        <T> TypedQuery<T> bind(TypedQuery<T> query) {
            params.forEach(query::setParameter);
            return query;
        }
    }
}
