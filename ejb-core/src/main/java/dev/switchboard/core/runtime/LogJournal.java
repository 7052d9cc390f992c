package dev.switchboard.core.runtime;

import dev.switchboard.core.clock.PeriodicTask;
import dev.switchboard.core.lane.LaneSettings;
import dev.switchboard.core.sql.MultiRowInsert;
import dev.switchboard.core.sql.Statements;
import dev.switchboard.core.sql.Store;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.ejb.ConcurrencyManagement;
import jakarta.ejb.ConcurrencyManagementType;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.logging.Formatter;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;
import javax.sql.DataSource;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The server log journal behind {@code server/logStream} (H12: real log lines, not envelopes),
 * written for clients: a level, a time and one line of text — never a stack trace, an exception
 * class or SQL. Entries about a user's turns and runtime belong to that user; the server's own log
 * lines (Switchboard's loggers, INFO and above, message text only) belong to no user and only
 * operators see them.
 *
 * <p>The journal is a table shared by every instance, so it survives restarts and shows every
 * instance's entries. Entries are noted in memory (a log handler must never wait for the
 * database, nor log from inside it) and written every {@value #FLUSH_MS} ms with one multi-row
 * insert; a read writes what is pending first, so a caller sees what it caused. While the database
 * is unreachable at most {@value #CAPACITY} entries wait, the oldest making room for new ones.
 * Entries older than {@code switchboard.log.retention-hours} are deleted.
 */
@Store("log_entries")
@Singleton
@Startup
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class LogJournal {

    static final int CAPACITY = 10_000;
    static final int MAX_MESSAGE = 500;
    static final long FLUSH_MS = 500;
    private static final long PRUNE_MS = 600_000;
    private static final Logger LOG = Logger.getLogger(LogJournal.class.getName());
    private static final MultiRowInsert<Entry> INSERT = new MultiRowInsert<>(
            "INSERT INTO log_entries (instance_id, user_key, level, logged_at, message) VALUES ", "(?, ?, ?, ?, ?)",
            (statement, index, e) -> {
                statement.setString(index, e.instance());
                statement.setString(index + 1, e.userKey());
                statement.setString(index + 2, e.level());
                statement.setLong(index + 3, e.time().toEpochMilli());
                statement.setString(index + 4, e.message());
                return index + 5;
            });

    /**
     * One log line as {@code server/logStream} returns it; {@code userKey} null for the server's own
     * lines, {@code instance} the instance that wrote it.
     */
    public record Entry(String level, Instant time, String message, String userKey, String instance) {
    }

    @Resource(lookup = "jdbc/switchboard")
    DataSource dataSource;

    @Resource
    ManagedThreadFactory threadFactory;

    @Inject
    LaneSettings lanes;

    @Inject
    @ConfigProperty(name = "switchboard.log.retention-hours", defaultValue = "168")
    long retentionHours;

    /*
     * Its own statements on the data source: every call here runs outside a transaction (the bean's
     * methods do not support one, the writer is its own thread), so each statement commits alone (a
     * connection outside a transaction is in auto-commit, as Liberty's pool hands it out) and a failure
     * to log is never part of — nor rolls back — what was being logged.
     */
    private volatile Statements statements;

    /** Noted, not yet written; guarded by {@code this}. */
    private final ArrayDeque<Entry> pending = new ArrayDeque<>();
    /** One write at a time, so entries reach the table in the order they were noted. */
    private final Object writing = new Object();
    private final Logger root = Logger.getLogger("dev.switchboard");
    private ScheduledExecutorService writer;
    private String instance;
    private final Handler handler = new Handler() {
        private final Formatter formatter = new SimpleFormatter();

        @Override
        public void publish(LogRecord record) {
            if (record.getLevel().intValue() < Level.INFO.intValue()) {
                return;
            }
            // The record's throwable stays in the server log: clients get the message text only.
            add(new Entry(level(record.getLevel()), record.getInstant(), forClients(formatter.formatMessage(record)),
                    null, instance));
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };

    @PostConstruct
    void attach() {
        instance = lanes.instanceId();
        root.addHandler(handler);
        writer = Executors.newSingleThreadScheduledExecutor(threadFactory);
        writer.scheduleWithFixedDelay(PeriodicTask.guarded(LOG, "Writing the log journal", this::flush),
                FLUSH_MS, FLUSH_MS, TimeUnit.MILLISECONDS);
        writer.scheduleWithFixedDelay(PeriodicTask.guarded(LOG, "Pruning the log journal", this::prune),
                PRUNE_MS, PRUNE_MS, TimeUnit.MILLISECONDS);
        root.info("Log journal attached");
    }

    @PreDestroy
    void detach() {
        root.removeHandler(handler);
        writer.shutdownNow();
        flush();
    }

    /** An entry about one user's work, visible to that user (and operators). */
    public void note(String userKey, String level, String message) {
        add(new Entry(level, Instant.now(), forClients(message), userKey, instance));
    }

    private Statements statements() {
        Statements made = statements;
        if (made == null) {
            made = new Statements(dataSource); // the same every time: a race makes two, harmlessly
            statements = made;
        }
        return made;
    }

    synchronized void add(Entry entry) {
        if (pending.size() >= CAPACITY) {
            pending.removeFirst();
        }
        pending.addLast(entry);
    }

    /** Writes what is pending; what the database refuses stays pending for the next write. */
    boolean flush() {
        synchronized (writing) {
            List<Entry> batch;
            synchronized (this) {
                batch = new ArrayList<>(pending);
            }
            if (batch.isEmpty()) {
                return true;
            }
            try {
                statements().insertRows(INSERT, batch, "writing " + batch.size() + " log journal entries");
            } catch (IllegalStateException e) {
                // FINE: a failure to write the journal must not add entries to it.
                LOG.log(Level.FINE, "Writing " + batch.size() + " log journal entries failed; they stay pending", e);
                return false;
            }
            Set<Entry> written = Collections.newSetFromMap(new IdentityHashMap<>());
            written.addAll(batch);
            synchronized (this) {
                // Only the written ones: entries added meanwhile stay; ones dropped for room are gone.
                pending.removeIf(written::contains);
            }
            return true;
        }
    }

    private void prune() {
        long before = Instant.now().minus(Duration.ofHours(retentionHours)).toEpochMilli();
        try {
            statements().update("DELETE FROM log_entries WHERE logged_at < ?", s -> s.setLong(1, before),
                    "pruning the log journal");
        } catch (IllegalStateException e) {
            LOG.log(Level.FINE, "Pruning the log journal failed; the next sweep tries again", e);
        }
    }

    /**
     * Up to {@code maxLines} of the entries {@code userKey} may see (an operator sees all, of every
     * instance), skipping the newest {@code fromPosition} of them, oldest first.
     */
    public List<Entry> read(String userKey, boolean operator, int fromPosition, int maxLines) {
        flush();
        String sql = "SELECT level, logged_at, message, user_key, instance_id FROM log_entries"
                + (operator ? "" : " WHERE user_key = ?")
                + " ORDER BY logged_at DESC, entry_id DESC OFFSET ? ROWS FETCH NEXT ? ROWS ONLY";
        List<Entry> newestFirst = new ArrayList<>(statements().query(sql, query -> {
            int index = 1;
            if (!operator) {
                query.setString(index++, userKey);
            }
            query.setInt(index++, fromPosition);
            query.setInt(index, maxLines);
        }, rows -> new Entry(rows.getString(1), Instant.ofEpochMilli(rows.getLong(2)), rows.getString(3),
                rows.getString(4), rows.getString(5)), "reading the log journal"));
        Collections.reverse(newestFirst);
        return newestFirst;
    }

    /** The first line, at most {@value #MAX_MESSAGE} characters. */
    static String forClients(String message) {
        if (message == null) {
            return "";
        }
        int newline = message.indexOf('\n');
        String line = newline >= 0 ? message.substring(0, newline).stripTrailing() : message;
        return line.length() > MAX_MESSAGE ? line.substring(0, MAX_MESSAGE) + "…" : line;
    }

    static String level(Level level) {
        if (level.intValue() >= Level.SEVERE.intValue()) {
            return "error";
        }
        if (level.intValue() >= Level.WARNING.intValue()) {
            return "warn";
        }
        return "info";
    }
}
