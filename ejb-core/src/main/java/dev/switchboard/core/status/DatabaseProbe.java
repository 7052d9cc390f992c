package dev.switchboard.core.status;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.ejb.ConcurrencyManagement;
import jakarta.ejb.ConcurrencyManagementType;
import jakarta.ejb.DependsOn;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * Whether the database answers, known without asking it on a health request's thread: a thread
 * of its own runs {@code SELECT 1} every second (one second to answer), and readiness reads how
 * long ago it last answered. A health probe never waits for a connection or a query — under load
 * it answers at once, and with the database away it says so within a few seconds.
 */
@Singleton
@Startup
@DependsOn("SchemaBootstrap")
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class DatabaseProbe {

    private static final Logger LOG = Logger.getLogger(DatabaseProbe.class.getName());
    static final long EVERY_MS = 1_000;
    /** An answer older than this (three probes missed) is no answer. */
    static final long STALE_MS = 3_000;

    @Resource(lookup = "jdbc/switchboard")
    DataSource dataSource;

    @Resource
    ManagedThreadFactory threadFactory;

    private ScheduledExecutorService timer;
    /** The application started on an answering database (its schema was checked): that counts as an answer. */
    private volatile long lastAnswerNanos = System.nanoTime();

    @PostConstruct
    void start() {
        timer = Executors.newSingleThreadScheduledExecutor(threadFactory);
        timer.scheduleWithFixedDelay(this::probe, 0, EVERY_MS, TimeUnit.MILLISECONDS);
    }

    @PreDestroy
    void stop() {
        timer.shutdownNow();
    }

    private void probe() {
        try (Connection c = dataSource.getConnection(); Statement s = c.createStatement()) {
            s.setQueryTimeout(1);
            s.execute("SELECT 1");
            lastAnswerNanos = System.nanoTime();
        } catch (SQLException | RuntimeException e) {
            LOG.log(Level.FINE, "The database did not answer its probe", e);
        }
    }

    /** The database answered within the last {@link #STALE_MS} ms. */
    public boolean reachable() {
        return System.nanoTime() - lastAnswerNanos < TimeUnit.MILLISECONDS.toNanos(STALE_MS);
    }
}
