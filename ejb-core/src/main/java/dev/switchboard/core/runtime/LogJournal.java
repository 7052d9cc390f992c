package dev.switchboard.core.runtime;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.ejb.ConcurrencyManagement;
import jakarta.ejb.ConcurrencyManagementType;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.logging.Formatter;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;

/**
 * The server's recent log entries for {@code server/logStream} (H12: real log lines, not
 * envelopes), written for clients: a level, a time and one line of text — never a stack trace,
 * an exception class or SQL. Entries about a user's turns and runtime belong to that user; the
 * server's own log lines (Switchboard's loggers, INFO and above, message text only) belong to no
 * user and only operators see them. Bounded: the oldest entries make room for new ones.
 */
@Singleton
@Startup
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
public class LogJournal {

    static final int CAPACITY = 10_000;
    static final int MAX_MESSAGE = 500;

    /** One log line as {@code server/logStream} returns it; {@code userKey} null for the server's own lines. */
    public record Entry(String level, Instant time, String message, String userKey) {
    }

    private final ArrayDeque<Entry> entries = new ArrayDeque<>();
    private final Logger root = Logger.getLogger("dev.switchboard");
    private final Handler handler = new Handler() {
        private final Formatter formatter = new SimpleFormatter();

        @Override
        public void publish(LogRecord record) {
            if (record.getLevel().intValue() < Level.INFO.intValue()) {
                return;
            }
            // The record's throwable stays in the server log: clients get the message text only.
            add(new Entry(level(record.getLevel()), record.getInstant(), forClients(formatter.formatMessage(record)),
                    null));
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
        root.addHandler(handler);
        root.info("Log journal attached");
    }

    @PreDestroy
    void detach() {
        root.removeHandler(handler);
    }

    /** An entry about one user's work, visible to that user (and operators). */
    public void note(String userKey, String level, String message) {
        add(new Entry(level, Instant.now(), forClients(message), userKey));
    }

    synchronized void add(Entry entry) {
        if (entries.size() >= CAPACITY) {
            entries.removeFirst();
        }
        entries.addLast(entry);
    }

    /**
     * Up to {@code maxLines} of the entries {@code userKey} may see (an operator sees all), skipping
     * the newest {@code fromPosition} of them, oldest first.
     */
    public synchronized List<Entry> read(String userKey, boolean operator, int fromPosition, int maxLines) {
        List<Entry> newestFirst = new ArrayList<>(Math.min(maxLines, 256));
        Iterator<Entry> it = entries.descendingIterator();
        int skipped = 0;
        while (it.hasNext() && newestFirst.size() < maxLines) {
            Entry e = it.next();
            if (!operator && !userKey.equals(e.userKey())) {
                continue;
            }
            if (skipped < fromPosition) {
                skipped++;
                continue;
            }
            newestFirst.add(e);
        }
        List<Entry> result = new ArrayList<>(newestFirst.size());
        for (int i = newestFirst.size() - 1; i >= 0; i--) {
            result.add(newestFirst.get(i));
        }
        return result;
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
