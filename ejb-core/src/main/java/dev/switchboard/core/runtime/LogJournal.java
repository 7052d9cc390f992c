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
 * The server's recent log records (Switchboard's own loggers, INFO and above), kept in memory
 * for {@code server/logStream} (H12: real log lines, not envelopes). Bounded: the oldest records
 * make room for new ones.
 */
@Singleton
@Startup
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
public class LogJournal {

    static final int CAPACITY = 10_000;

    /** One log line as {@code server/logStream} returns it. */
    public record Entry(String level, Instant time, String message) {
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
            String message = formatter.formatMessage(record);
            if (record.getThrown() != null) {
                message = message + ": " + record.getThrown();
            }
            add(new Entry(level(record.getLevel()), record.getInstant(), message));
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

    synchronized void add(Entry entry) {
        if (entries.size() >= CAPACITY) {
            entries.removeFirst();
        }
        entries.addLast(entry);
    }

    /** Up to {@code maxLines} entries, skipping the newest {@code fromPosition}, oldest first. */
    public synchronized List<Entry> read(int fromPosition, int maxLines) {
        List<Entry> newestFirst = new ArrayList<>(maxLines);
        Iterator<Entry> it = entries.descendingIterator();
        int skipped = 0;
        while (it.hasNext() && newestFirst.size() < maxLines) {
            Entry e = it.next();
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
