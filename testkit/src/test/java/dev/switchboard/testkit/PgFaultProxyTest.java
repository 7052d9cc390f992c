package dev.switchboard.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Runs the proxy against the real PostgreSQL on 127.0.0.1:5432 with the real JDBC driver. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class PgFaultProxyTest {

    private static final String PG_HOST = "127.0.0.1";
    private static final int PG_PORT = 5432;
    private static final String USER = "postgres";
    private static final String PASSWORD = "postgres";
    private static final String TABLE = "pgfp_" + UUID.randomUUID().toString().replace("-", "").substring(0, 16);
    private static final String INSERT = "INSERT INTO " + TABLE + " (marker) VALUES (?)";

    private PgFaultProxy proxy;

    @BeforeAll
    static void createTable() throws SQLException {
        try (Connection c = direct(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE " + TABLE + " (id bigserial PRIMARY KEY, marker text NOT NULL)");
        }
    }

    @AfterAll
    static void dropTable() throws SQLException {
        try (Connection c = direct(); Statement s = c.createStatement()) {
            s.execute("DROP TABLE IF EXISTS " + TABLE);
        }
    }

    @BeforeEach
    void startProxy() {
        proxy = new PgFaultProxy(0, PG_HOST, PG_PORT).start();
    }

    @AfterEach
    void closeProxy() {
        proxy.close();
    }

    @Test
    void plainQueriesAndACommittedTransactionPassThroughUnchanged() throws Exception {
        String marker = marker();
        try (Connection c = viaProxy("")) {
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT 1")) {
                assertTrue(rs.next());
                assertEquals(1, rs.getInt(1));
            }
            String text = "grüße ✓ " + marker;
            try (PreparedStatement ps = c.prepareStatement("SELECT ?::text || '!'")) {
                ps.setString(1, text);
                try (ResultSet rs = ps.executeQuery()) {
                    assertTrue(rs.next());
                    assertEquals(text + "!", rs.getString(1));
                }
            }
            // Many messages, several of them larger than one read, must arrive whole and in order.
            try (Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SELECT g, repeat(md5(g::text), 400) FROM generate_series(1, 3000) g")) {
                int expected = 1;
                while (rs.next()) {
                    assertEquals(expected, rs.getInt(1));
                    assertEquals(12_800, rs.getString(2).length());
                    expected++;
                }
                assertEquals(3001, expected);
            }

            c.setAutoCommit(false);
            insert(c, marker);
            insert(c, marker);
            c.commit();
            insert(c, marker + "-rolled-back");
            c.rollback();
        }
        assertEquals(2, countDirect(marker));
        assertEquals(0, countDirect(marker + "-rolled-back"));
        assertEquals(1, proxy.connectionsAccepted());
        assertEquals(0, proxy.cuts());
    }

    @Test
    void cutAfterCommitCommitsOnTheServerButTheClientNeverLearns() throws Exception {
        String marker = marker();
        String other = marker();
        CompletableFuture<String> fault = proxy.cutAfterCommit(tx -> tx.contains(marker));
        try (Connection bystander = viaProxy(""); Connection victim = viaProxy("")) {
            bystander.setAutoCommit(false);
            insert(bystander, other);

            victim.setAutoCommit(false);
            insert(victim, marker);
            assertFalse(fault.isDone());
            assertThrows(SQLException.class, victim::commit);

            String tx = fault.get(10, TimeUnit.SECONDS);
            // pgjdbc sends BEGIN as a simple query, then the bound INSERT and its text parameter.
            assertEquals("BEGIN\n" + INSERT.replace("?", "$1") + "\n" + marker + "\nCOMMIT", tx);
            assertEquals(1, countDirect(marker));
            assertEquals(1, proxy.cuts());

            // The other connection's open transaction is unaffected.
            bystander.commit();
            assertEquals(1, countDirect(other));
        }
        // One-shot: the same kind of transaction now commits normally.
        try (Connection c = viaProxy("")) {
            c.setAutoCommit(false);
            insert(c, marker);
            c.commit();
        }
        assertEquals(2, countDirect(marker));
        assertEquals(1, proxy.cuts());
    }

    @Test
    void cutAfterCommitFiresWhenCommitIsAnAlreadyPreparedNamedStatement() throws Exception {
        String warmup = marker();
        String marker = marker();
        try (Connection c = viaProxy("&prepareThreshold=1")) {
            c.setAutoCommit(false);
            for (int i = 0; i < 3; i++) {
                insert(c, warmup);
                c.commit();
            }
            assertEquals(3, countDirect(warmup));

            // The server confirms COMMIT and the INSERT are named statements of this session, so
            // from here on the driver sends only Bind for them: no Parse carries their text.
            String commitName = null;
            boolean insertNamed = false;
            try (Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SELECT name, statement FROM pg_prepared_statements")) {
                while (rs.next()) {
                    if (rs.getString(2).equals("COMMIT")) {
                        commitName = rs.getString(1);
                    }
                    insertNamed |= rs.getString(2).startsWith("INSERT INTO " + TABLE) && !rs.getString(1).isEmpty();
                }
            }
            assertTrue(commitName != null && !commitName.isEmpty(), "COMMIT is a named statement: " + commitName);
            assertTrue(insertNamed, "the INSERT is a named statement");

            CompletableFuture<String> fault = proxy.cutAfterCommit(tx -> tx.contains(marker));
            insert(c, marker);
            assertThrows(SQLException.class, c::commit);
            String tx = fault.get(10, TimeUnit.SECONDS);
            assertTrue(tx.endsWith(marker + "\nCOMMIT"), tx);
        }
        assertEquals(1, countDirect(marker));
        assertEquals(1, proxy.cuts());
    }

    @Test
    void aNonMatchingTransactionCommitsWhileArmedAndAMatchingOneLaterFires() throws Exception {
        String innocent = marker();
        String target = marker();
        CompletableFuture<String> fault = proxy.cutAfterCommit(tx -> tx.contains(target));
        try (Connection c = viaProxy("")) {
            c.setAutoCommit(false);
            insert(c, innocent);
            c.commit();
            assertEquals(1, countDirect(innocent));
            assertFalse(fault.isDone());

            insert(c, innocent);
            insert(c, target);
            assertThrows(SQLException.class, c::commit);
        }
        assertTrue(fault.get(10, TimeUnit.SECONDS).contains(target));
        assertEquals(1, countDirect(target));
        assertEquals(2, countDirect(innocent));
        assertEquals(1, proxy.cuts());
    }

    @Test
    void autocommittedStatementsDoNotCountTowardsTheNextTransaction() throws Exception {
        String target = marker();
        CompletableFuture<String> fault = proxy.cutAfterCommit(tx -> tx.contains(target));
        try (Connection c = viaProxy("")) {
            insert(c, target); // autocommit: no COMMIT is ever sent for it
            c.setAutoCommit(false);
            insert(c, marker());
            c.commit();
        }
        assertFalse(fault.isDone());
        assertEquals(1, countDirect(target));
        assertEquals(0, proxy.cuts());
    }

    @Test
    void severalArmedFaultsFireOncePerMatchingCommitInArmingOrder() throws Exception {
        String a = marker();
        String b = marker();
        String c = marker();
        CompletableFuture<String> faultA = proxy.cutAfterCommit(tx -> tx.contains(a));
        CompletableFuture<String> faultB1 = proxy.cutAfterCommit(tx -> tx.contains(b));
        CompletableFuture<String> faultB2 = proxy.cutAfterCommit(tx -> tx.contains(b));
        CompletableFuture<String> faultC = proxy.cutAfterCommit(tx -> tx.contains(c));
        assertTrue(faultC.cancel(false));

        assertThrows(SQLException.class, () -> commitOne(b));
        assertTrue(faultB1.get(10, TimeUnit.SECONDS).contains(b));
        assertFalse(faultB2.isDone());
        assertFalse(faultA.isDone());

        commitOne(c); // its fault was cancelled, so disarmed

        assertThrows(SQLException.class, () -> commitOne(a));
        assertTrue(faultA.get(10, TimeUnit.SECONDS).contains(a));
        assertThrows(SQLException.class, () -> commitOne(b));
        assertTrue(faultB2.get(10, TimeUnit.SECONDS).contains(b));

        commitOne(b);
        assertEquals(3, countDirect(b));
        assertEquals(1, countDirect(a));
        assertEquals(1, countDirect(c));
        assertEquals(3, proxy.cuts());
    }

    @Test
    void cutAfterCommitFiresOnASimpleQueryCommit() throws Exception {
        String marker = marker();
        CompletableFuture<String> fault = proxy.cutAfterCommit(tx -> tx.contains(marker));
        try (Connection c = viaProxy("&preferQueryMode=simple")) {
            c.setAutoCommit(false);
            insert(c, marker);
            assertThrows(SQLException.class, c::commit);
        }
        // In simple mode the driver inlines parameters, so the marker is part of the Query text.
        String tx = fault.get(10, TimeUnit.SECONDS);
        assertTrue(tx.startsWith("BEGIN\nINSERT INTO " + TABLE) && tx.endsWith("\nCOMMIT"), tx);
        assertEquals(1, countDirect(marker));
    }

    @Test
    void anSslRequestIsRelayedAndParsingContinuesWhenTheServerDeclines() throws Exception {
        String marker = marker();
        CompletableFuture<String> fault = proxy.cutAfterCommit(tx -> tx.contains(marker));
        try (Connection c = viaProxy("&sslmode=prefer")) { // the later sslmode wins: SSLRequest first
            boolean encrypted;
            try (Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()")) {
                assertTrue(rs.next());
                encrypted = rs.getBoolean(1);
            }
            c.setAutoCommit(false);
            insert(c, marker);
            if (encrypted) {
                // The server accepted TLS: the proxy only copies bytes and cannot see the COMMIT.
                c.commit();
                assertFalse(fault.isDone());
            } else {
                assertThrows(SQLException.class, c::commit);
                assertTrue(fault.get(10, TimeUnit.SECONDS).contains(marker));
            }
        }
        assertEquals(1, countDirect(marker));
    }

    @Test
    void cutAllBreaksOpenConnectionsAndNewOnesWork() throws Exception {
        String uncommitted = marker();
        try (Connection idle = viaProxy(""); Connection inTx = viaProxy("")) {
            inTx.setAutoCommit(false);
            insert(inTx, uncommitted);

            assertEquals(2, proxy.cutAll());
            assertEquals(2, proxy.cuts());

            assertThrows(SQLException.class, () -> selectOne(idle));
            assertThrows(SQLException.class, () -> selectOne(inTx));
        }
        try (Connection fresh = viaProxy("")) {
            assertEquals(1, selectOne(fresh));
        }
        assertEquals(0, countDirect(uncommitted));
        assertEquals(3, proxy.connectionsAccepted());
        assertEquals(2, proxy.cuts());
    }

    @Test
    void anOutageResetsOpenConnectionsAndRefusesNewOnesUntilRestored() throws Exception {
        try (Connection open = viaProxy("")) {
            assertEquals(1, selectOne(open));
            assertEquals(1, proxy.outage());
            assertThrows(SQLException.class, () -> selectOne(open));
        }
        SQLException refused = assertThrows(SQLException.class, () -> viaProxy("").close());
        assertTrue(refused.getCause() instanceof java.net.ConnectException, () -> "refused as by a stopped server: " + refused);
        assertThrows(IllegalStateException.class, proxy::outage, "one outage at a time");

        proxy.restore();
        try (Connection fresh = viaProxy("")) {
            assertEquals(1, selectOne(fresh));
        }
        assertEquals(2, proxy.connectionsAccepted(), "the refused connection never reached the proxy");
        assertThrows(IllegalStateException.class, proxy::restore, "nothing to restore");
    }

    @Test
    void stallHoldsTrafficUntilItIsLifted() throws Exception {
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try (Connection c = viaProxy("")) {
            assertEquals(1, selectOne(c));
            proxy.stall(true);
            CompletableFuture<Long> query = CompletableFuture.supplyAsync(() -> {
                try (Statement s = c.createStatement();
                     ResultSet rs = s.executeQuery("SELECT sum(g) FROM generate_series(1, 1000) g")) {
                    rs.next();
                    return rs.getLong(1);
                } catch (SQLException e) {
                    throw new IllegalStateException(e);
                }
            }, pool);
            assertThrows(TimeoutException.class, () -> query.get(500, TimeUnit.MILLISECONDS));

            proxy.stall(false);
            assertEquals(500_500L, query.get(10, TimeUnit.SECONDS));
            assertEquals(1, selectOne(c));
        } finally {
            proxy.stall(false);
            pool.shutdownNow();
        }
        assertEquals(0, proxy.cuts());
    }

    @Test
    void holdAfterLeavesTheSessionIdleInItsTransactionUntilReleased() throws Exception {
        String marker = marker();
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try (PgFaultProxy.Hold hold = proxy.holdAfter(tx -> tx.contains(marker));
             Connection bystander = viaProxy(""); Connection victim = viaProxy("")) {
            assertEquals(1, selectOne(bystander));
            victim.setAutoCommit(false);
            insert(victim, marker); // the matching batch itself is answered
            assertEquals("BEGIN\n" + INSERT.replace("?", "$1") + "\n" + marker, hold.held().get(10, TimeUnit.SECONDS));

            CompletableFuture<Void> commit = CompletableFuture.runAsync(() -> {
                try {
                    victim.commit();
                } catch (SQLException e) {
                    throw new IllegalStateException(e);
                }
            }, pool);
            assertThrows(TimeoutException.class, () -> commit.get(500, TimeUnit.MILLISECONDS));
            assertEquals(1, idleInTransactionInserts(), "the server sees the session idle in its transaction");
            assertEquals(0, countDirect(marker));
            assertEquals(1, selectOne(bystander), "other connections go on");

            hold.release();
            commit.get(10, TimeUnit.SECONDS);
            assertEquals(1, countDirect(marker));
            assertFalse(hold.ended().isDone());
        } finally {
            pool.shutdownNow();
        }
        assertEquals(0, proxy.cuts());
    }

    @Test
    void aHeldSessionThatTheServerEndsEndsItsConnection() throws Exception {
        String marker = marker();
        try (PgFaultProxy.Hold hold = proxy.holdAfter(tx -> tx.contains(marker));
             Connection victim = viaProxy("&options=-c%20idle_in_transaction_session_timeout%3D300")) {
            victim.setAutoCommit(false);
            insert(victim, marker);
            hold.held().get(10, TimeUnit.SECONDS);
            hold.ended().get(10, TimeUnit.SECONDS);
            assertThrows(SQLException.class, victim::commit);
        }
        assertEquals(0, countDirect(marker));
    }

    @Test
    void anUnmatchedHoldIsDisarmedByItsRelease() throws Exception {
        String marker = marker();
        PgFaultProxy.Hold hold = proxy.holdAfter(tx -> tx.contains(marker));
        hold.release();
        commitOne(marker);
        assertEquals(1, countDirect(marker));
        assertFalse(hold.held().isDone());
    }

    @Test
    void closeCutsConnectionsAndFailsArmedFaults() throws Exception {
        CompletableFuture<String> fault = proxy.cutAfterCommit(tx -> true);
        try (Connection c = viaProxy("")) {
            assertEquals(1, selectOne(c));
            proxy.close();
            assertThrows(SQLException.class, () -> selectOne(c));
        }
        ExecutionException e = assertThrows(ExecutionException.class, () -> fault.get(10, TimeUnit.SECONDS));
        assertTrue(e.getCause() instanceof IllegalStateException, e.toString());
        assertThrows(SQLException.class, () -> viaProxy("").close());
    }

    private static String marker() {
        return "m-" + UUID.randomUUID();
    }

    private Connection viaProxy(String extraParams) throws SQLException {
        return DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + proxy.port()
                + "/postgres?sslmode=disable&connectTimeout=5&socketTimeout=20" + extraParams, USER, PASSWORD);
    }

    private static Connection direct() throws SQLException {
        return DriverManager.getConnection("jdbc:postgresql://" + PG_HOST + ":" + PG_PORT
                + "/postgres?sslmode=disable&connectTimeout=5&socketTimeout=20", USER, PASSWORD);
    }

    private static void insert(Connection c, String marker) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(INSERT)) {
            ps.setString(1, marker);
            assertEquals(1, ps.executeUpdate());
        }
    }

    /** One transaction on a fresh proxied connection inserting {@code marker}. */
    private void commitOne(String marker) throws SQLException {
        try (Connection c = viaProxy("")) {
            c.setAutoCommit(false);
            insert(c, marker);
            c.commit();
        }
    }

    private static int selectOne(Connection c) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT 1")) {
            rs.next();
            return rs.getInt(1);
        }
    }

    private static int idleInTransactionInserts() throws SQLException {
        try (Connection c = direct(); PreparedStatement ps = c.prepareStatement("SELECT count(*) FROM pg_stat_activity"
                + " WHERE state = 'idle in transaction' AND query LIKE ? AND pid <> pg_backend_pid()")) {
            ps.setString(1, "INSERT INTO " + TABLE + "%");
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        }
    }

    private static int countDirect(String marker) throws SQLException {
        try (Connection c = direct();
             PreparedStatement ps = c.prepareStatement("SELECT count(*) FROM " + TABLE + " WHERE marker = ?")) {
            ps.setString(1, marker);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        }
    }
}
