package dev.switchboard.core.monitor;

import dev.switchboard.core.sql.Statements;
import dev.switchboard.core.sql.Store;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;

/** The {@code monitor_samples} rows: every statement on them. */
@Store("monitor_samples")
@ApplicationScoped
public class MonitorSamples {

    private static final String COLUMNS = "owner, instance, sampled_at, interval_ms, runs_succeeded, runs_failed,"
            + " latency_p50_ms, latency_p99_ms, messages_accepted, runs_queued, runs_executing, subscribers,"
            + " webhooks_delivered, webhooks_not_delivered, ingress_events";
    private static final String INSERT = "INSERT INTO monitor_samples (" + COLUMNS
            + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
    private static final String SINCE = "SELECT " + COLUMNS + " FROM monitor_samples WHERE sampled_at > ?"
            + " ORDER BY sampled_at, owner FETCH FIRST ? ROWS ONLY";
    private static final String PRUNE = "DELETE FROM monitor_samples WHERE sampled_at < ?";

    @Inject
    Statements statements;

    public void insert(MonitorSample m) {
        statements.update(INSERT, s -> {
            s.setString(1, m.owner());
            s.setString(2, m.instance());
            s.setLong(3, m.sampledAt());
            s.setInt(4, m.intervalMs());
            s.setLong(5, m.runsSucceeded());
            s.setLong(6, m.runsFailed());
            Statements.setLong(s, 7, m.latencyP50Ms());
            Statements.setLong(s, 8, m.latencyP99Ms());
            s.setLong(9, m.messagesAccepted());
            Statements.setLong(s, 10, m.runsQueued());
            s.setInt(11, m.runsExecuting());
            s.setInt(12, m.subscribers());
            s.setLong(13, m.webhooksDelivered());
            s.setLong(14, m.webhooksNotDelivered());
            s.setLong(15, m.ingressEvents());
        }, "storing a monitor sample");
    }

    /** Every instance's samples taken after {@code after}, oldest first, at most {@code limit}. */
    public List<MonitorSample> since(long after, int limit) {
        return statements.query(SINCE, s -> {
            s.setLong(1, after);
            s.setInt(2, limit);
        }, MonitorSamples::read, "reading monitor samples");
    }

    /** Deletes the samples taken before {@code before}; returns how many. */
    public int prune(long before) {
        return statements.update(PRUNE, s -> s.setLong(1, before), "pruning monitor samples");
    }

    private static MonitorSample read(ResultSet r) throws SQLException {
        return new MonitorSample(r.getString(1), r.getString(2), r.getLong(3), r.getInt(4), r.getLong(5), r.getLong(6),
                Statements.getLong(r, 7), Statements.getLong(r, 8), r.getLong(9), Statements.getLong(r, 10), r.getInt(11), r.getInt(12),
                r.getLong(13), r.getLong(14), r.getLong(15));
    }
}
