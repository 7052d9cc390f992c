package dev.switchboard.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class PgTransactionTextTest {

    private final PgTransactionText tx = new PgTransactionText();

    @Test
    void aNamedCommitThatIsOnlyBoundEndsTheTransactionWithItsTextAndTextParameters() {
        assertNull(tx.accept('P', parse("S_1", "COMMIT")));
        assertNull(tx.accept('P', parse("", "INSERT INTO t (a, b) VALUES ($1, $2)")));
        assertNull(tx.accept('B', bind("", "marker", null)));
        assertEquals("INSERT INTO t (a, b) VALUES ($1, $2)\nmarker\nCOMMIT", tx.accept('B', bind("S_1")));
        assertEquals("COMMIT", tx.accept('Q', query("COMMIT")), "a new transaction starts empty");
    }

    @Test
    void rollbackForgetsButARollbackToASavepointDoesNot() {
        tx.accept('Q', query("UPDATE t SET a = 1"));
        tx.accept('Q', query("ROLLBACK TO SAVEPOINT s"));
        tx.accept('Q', query("UPDATE t SET a = 2"));
        assertEquals("UPDATE t SET a = 1\nROLLBACK TO SAVEPOINT s\nUPDATE t SET a = 2\nEND", tx.accept('Q', query("END")));
        tx.accept('Q', query("UPDATE t SET a = 3"));
        assertNull(tx.accept('Q', query("ROLLBACK")));
        assertEquals("COMMIT", tx.accept('Q', query("COMMIT")));
    }

    @Test
    void aClosedStatementIsForgottenAndWordsThatMerelyStartWithCommitAreNotCommits() {
        tx.accept('P', parse("S_2", "COMMIT"));
        tx.accept('C', close("S_2"));
        assertNull(tx.accept('B', bind("S_2")), "an unknown statement is no commit");
        assertNull(tx.accept('Q', query("COMMITTED_WORK()")));
        tx.reset();
        assertEquals("commit", tx.accept('Q', query("  commit  ")), "any case, trimmed");
    }

    private static byte[] parse(String name, String sql) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        cstring(b, name);
        cstring(b, sql);
        b.write(0);
        b.write(0); // no parameter types
        return b.toByteArray();
    }

    /** A Bind of {@code statement} with text parameters (null: SQL NULL). */
    private static byte[] bind(String statement, String... values) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        cstring(b, "");
        cstring(b, statement);
        b.write(0);
        b.write(0); // no format codes: all text
        b.write(0);
        b.write(values.length);
        for (String v : values) {
            if (v == null) {
                int32(b, -1);
            } else {
                byte[] bytes = v.getBytes(StandardCharsets.UTF_8);
                int32(b, bytes.length);
                b.writeBytes(bytes);
            }
        }
        b.write(0);
        b.write(0); // no result formats
        return b.toByteArray();
    }

    private static byte[] query(String sql) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        cstring(b, sql);
        return b.toByteArray();
    }

    private static byte[] close(String statement) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        b.write('S');
        cstring(b, statement);
        return b.toByteArray();
    }

    private static void cstring(ByteArrayOutputStream b, String s) {
        b.writeBytes(s.getBytes(StandardCharsets.UTF_8));
        b.write(0);
    }

    private static void int32(ByteArrayOutputStream b, int v) {
        b.write(v >>> 24);
        b.write(v >>> 16);
        b.write(v >>> 8);
        b.write(v);
    }
}
