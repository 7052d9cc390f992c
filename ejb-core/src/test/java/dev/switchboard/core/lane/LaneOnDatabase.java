package dev.switchboard.core.lane;

import dev.switchboard.core.clock.InstanceClock;
import dev.switchboard.core.metrics.Meters;
import dev.switchboard.core.sql.FreshDatabase;
import dev.switchboard.core.sql.LocalTransactions;
import dev.switchboard.core.sql.Statements;
import dev.switchboard.persistence.thread.DatabaseClock;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import javax.sql.DataSource;

/**
 * The lane built outside the container on a database of its own — a fresh PostgreSQL database, or
 * the embedded H2 in memory, as a newcomer's server runs on — brought to the newest schema: its statements, head, ends, API and ledger wired by hand, transactions from
 * {@link LocalTransactions}, a listener that records what it is told. One per test class; each
 * instance name ({@code owner}) is just a string, so several "instances" share it as they share a
 * database in production.
 */
final class LaneOnDatabase {

    /** What the listener was told, in order: {@code started <run>} and {@code ended <run> <state> <code>}. */
    final List<String> told = new CopyOnWriteArrayList<>();
    final LocalTransactions tx;
    final LaneLedger ledger;
    final Lanes lanes;
    final FinishedRuns finished;
    final LaneSettings settings = new LaneSettings();
    private final FreshDatabase.Kind kind;
    private final String database;
    private final DataSource dataSource;
    private final AtomicLong threadIds = new AtomicLong();

    LaneOnDatabase(FreshDatabase.Kind kind, String database, int maxAttempts) {
        this.kind = kind;
        this.database = database;
        dataSource = FreshDatabase.create(kind, database);
        tx = new LocalTransactions(dataSource);

        LaneRows rows = new LaneRows();
        rows.statements = new Statements(tx.dataSource());
        rows.payloads = new TextColumns();
        settings.leaseMs = 15_000;
        settings.maxAttempts = maxAttempts;
        InstanceClock clock = InstanceClock.of(Clock.systemUTC());
        LaneFeatures features = LaneFeatures.of(List.of(), List.of());
        LaneListener listener = new LaneListener() {
            @Override
            public void runStarted(LaneRun run) {
                told.add("started " + run.runId());
            }

            @Override
            public void runEnded(LaneRun run, RunEnd end) {
                told.add("ended " + run.runId() + " " + end.state().wire() + " " + end.errorCode());
            }
        };
        RunEnds ends = new RunEnds();
        ends.rows = rows;
        ends.listener = listener;
        ends.features = features;
        LaneHead head = new LaneHead();
        head.rows = rows;
        head.settings = settings;
        head.listener = listener;
        head.clock = clock;
        head.meters = Meters.none();
        head.ends = ends;
        lanes = new Lanes();
        lanes.rows = rows;
        lanes.ends = ends;
        lanes.clock = clock;
        lanes.head = head;
        ledger = new LaneLedger();
        ledger.rows = rows;
        ledger.dataSource = tx.dataSource();
        ledger.settings = settings;
        ledger.head = head;
        ledger.clock = clock;
        ledger.features = features;
        ledger.ends = ends;
        ledger.lanes = lanes;
        finished = new FinishedRuns();
        finished.rows = rows;
    }

    /** A new thread's lane of its own (the lane knows no more of a thread than its id); returns its id. */
    long thread() {
        long id = threadIds.incrementAndGet();
        tx.run(() -> lanes.open(id));
        return id;
    }

    /** {@code n} new threads' lanes, made in one transaction; their ids in order. */
    List<Long> threads(int n) {
        return tx.inTransaction(() -> {
            List<Long> ids = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                long id = threadIds.incrementAndGet();
                lanes.open(id);
                ids.add(id);
            }
            return ids;
        });
    }

    /** Enqueues runs with these texts on the thread, in one transaction; returns their ids in order. */
    List<String> enqueue(long threadId, String... texts) {
        return tx.inTransaction(() -> {
            Lane lane = lanes.lock(threadId);
            List<String> ids = new CopyOnWriteArrayList<>();
            for (String text : texts) {
                String runId = UUID.randomUUID().toString();
                lane = lanes.enqueue(lane, NewRun.queued(runId, threadId, lane.nextSeq(), 0, new LaneFixture.Input(text)));
                ids.add(runId);
            }
            lanes.save(lane);
            return ids;
        });
    }

    ClaimResult claim(long threadId, String owner) {
        return tx.inTransaction(() -> ledger.claim(threadId, owner));
    }

    LaneStore.FinishResult finish(Claim claim, String owner, String output, boolean chain) {
        return tx.inTransaction(() -> ledger.finish(claim, owner, output, null, chain));
    }

    /** A run's state and error code, as {@code state/code}. */
    String state(String runId) {
        return single("SELECT state || '/' || coalesce(error_code, '-') FROM runs WHERE run_id = ?", runId);
    }

    /** A run's input text and output, as {@code input|output} ({@code -} for none). */
    String content(String runId) {
        return single("SELECT input_text || '|' || coalesce(output_json, '-') FROM runs WHERE run_id = ?", runId);
    }

    /** The lane's lease owner (null when free). */
    String leaseOwner(long threadId) {
        return single("SELECT lease_owner FROM lanes WHERE thread_id = CAST(? AS BIGINT)", Long.toString(threadId));
    }

    /** A run's attempts and crashes, as {@code attempt/crashes}. */
    String attempts(String runId) {
        return single("SELECT attempt || '/' || crashes FROM runs WHERE run_id = ?", runId);
    }

    /** The lane's lease expiry less the database's time now (negative: expired). */
    long leaseLeftMs(long threadId) {
        return Long.parseLong(single("SELECT CAST(lease_until - " + DatabaseClock.NOW_MS + " AS VARCHAR(20)) FROM lanes"
                + " WHERE thread_id = CAST(? AS BIGINT)", Long.toString(threadId)));
    }

    /**
     * The lease of the thread ends now, as if its owner had stopped renewing it for a whole lease:
     * the step a crash takes, made at once instead of waited for.
     */
    void expireLease(long threadId) {
        execute("UPDATE lanes SET lease_until = 0 WHERE thread_id = " + threadId);
    }

    /** Whether a session of this database waits for a row lock (the step a test holds another at). */
    boolean someoneWaitsForALock() {
        return kind == FreshDatabase.Kind.POSTGRESQL
                ? "t".equals(single("SELECT CASE WHEN count(*) > 0 THEN 't' ELSE 'f' END FROM pg_stat_activity"
                        + " WHERE datname = ? AND wait_event_type = 'Lock'", database))
                : !"0".equals(single("SELECT CAST(count(*) AS VARCHAR(20)) FROM INFORMATION_SCHEMA.SESSIONS"
                        + " WHERE BLOCKER_ID IS NOT NULL AND CAST(? AS VARCHAR(100)) IS NOT NULL", database));
    }

    private String single(String sql, String parameter) {
        try (Connection c = connect(); PreparedStatement s = c.prepareStatement(sql)) {
            s.setString(1, parameter);
            try (ResultSet rs = s.executeQuery()) {
                return rs.next() ? rs.getString(1) : null;
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private void execute(String sql) {
        try (Connection c = connect(); Statement s = c.createStatement()) {
            s.execute(sql);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private Connection connect() throws SQLException {
        return dataSource.getConnection();
    }

    /**
     * The payload these tests give their runs: a text, in the run's input column (the columns the
     * schema requires filled with fixed values). The lane runs on it as on the features' own.
     */
    static final class TextColumns implements PayloadColumns {

        @Override
        public List<String> runColumns() {
            return List.of("r.input_text");
        }

        @Override
        public String runJoins() {
            return "";
        }

        @Override
        public RunPayload readRun(ResultSet rs, int first) throws SQLException {
            return new LaneFixture.Input(rs.getString(first));
        }

        @Override
        public List<String> newRunColumns() {
            return List.of("input_text", "user_key", "thread_key", "source", "kind", "delivery_mode", "payload_hash");
        }

        @Override
        public void bindNew(PreparedStatement s, int first, RunPayload payload) throws SQLException {
            s.setString(first, ((LaneFixture.Input) payload).text());
            for (String fixed : List.of("u", "t", "test", "message", "followUp", "hash")) {
                s.setString(++first, fixed);
            }
        }

        @Override
        public RunPayload added(RunPayload payload, long createdAt) {
            return payload;
        }

        @Override
        public List<String> blankContent() {
            return List.of("input_text = ''");
        }

        @Override
        public List<String> laneColumns() {
            return List.of();
        }

        @Override
        public LanePayload readLane(ResultSet rs, int first) {
            return LaneFixture.NO_CHOICE;
        }
    }
}
