package dev.switchboard.testkit;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What one client connection's PostgreSQL frontend messages say about its current transaction:
 * the statements it ran (Parse, Bind of named or unnamed statements, simple Query) and their
 * text-format parameter values, one piece per line, until a COMMIT, ROLLBACK, ABORT or END. The
 * JDBC driver sends COMMIT as a named server-side statement that is only bound, so statement names
 * are mapped to their text. Plain: {@link PgFaultProxy} feeds it messages and asks it when a
 * transaction commits.
 */
final class PgTransactionText {

    private enum Kind { COMMIT, ROLLBACK, OTHER }

    private final Map<String, String> statements = new HashMap<>();
    private final StringBuilder tx = new StringBuilder();

    /**
     * Takes one frontend message of {@code type} ('P', 'B', 'Q' or 'C'; others are ignored). Returns
     * the text of the transaction when this message commits it (its COMMIT included), else null.
     */
    String accept(int type, byte[] body) {
        ByteBuffer b = ByteBuffer.wrap(body);
        switch (type) {
            case 'P': {
                String name = cstring(b);
                statements.put(name, cstring(b));
                return null;
            }
            case 'C':
                if (b.get() == 'S') {
                    statements.remove(cstring(b));
                }
                return null;
            case 'Q':
                return statement(cstring(b), List.of());
            case 'B':
                return bind(b, body);
            default:
                return null;
        }
    }

    /** The text of the transaction so far (empty between transactions). */
    String text() {
        return tx.toString();
    }

    /** An implicit (autocommit) transaction ended: what was collected belongs to nothing. */
    void reset() {
        tx.setLength(0);
    }

    private String bind(ByteBuffer b, byte[] body) {
        cstring(b); // portal
        String sql = statements.getOrDefault(cstring(b), "");
        int nFormats = b.getShort() & 0xffff;
        short[] formats = new short[nFormats];
        for (int i = 0; i < nFormats; i++) {
            formats[i] = b.getShort();
        }
        int nParams = b.getShort() & 0xffff;
        List<String> values = new ArrayList<>(nParams);
        for (int i = 0; i < nParams; i++) {
            int length = b.getInt();
            if (length < 0) {
                continue; // NULL
            }
            int format = nFormats == 0 ? 0 : nFormats == 1 ? formats[0] : formats[i];
            if (format == 0) {
                values.add(new String(body, b.position(), length, StandardCharsets.UTF_8));
            }
            b.position(b.position() + length);
        }
        return statement(sql, values);
    }

    private String statement(String sql, List<String> values) {
        switch (classify(sql)) {
            case COMMIT -> {
                append(sql.trim());
                String committed = tx.toString();
                tx.setLength(0);
                return committed;
            }
            case ROLLBACK -> tx.setLength(0);
            default -> {
                append(sql.trim());
                values.forEach(this::append);
            }
        }
        return null;
    }

    private void append(String piece) {
        if (piece.isEmpty()) {
            return;
        }
        if (tx.length() > 0) {
            tx.append('\n');
        }
        tx.append(piece);
    }

    /** Classifies by the first keyword; ROLLBACK TO (a savepoint) does not end the transaction. */
    private static Kind classify(String sql) {
        int n = sql.length();
        int i = 0;
        while (i < n && Character.isWhitespace(sql.charAt(i))) {
            i++;
        }
        int j = i;
        while (j < n && Character.isLetter(sql.charAt(j))) {
            j++;
        }
        if (j < n && (Character.isLetterOrDigit(sql.charAt(j)) || sql.charAt(j) == '_' || sql.charAt(j) == '$')) {
            return Kind.OTHER;
        }
        switch (sql.substring(i, j).toUpperCase(Locale.ROOT)) {
            case "COMMIT":
            case "END":
                return Kind.COMMIT;
            case "ABORT":
                return Kind.ROLLBACK;
            case "ROLLBACK": {
                int k = j;
                while (k < n && Character.isWhitespace(sql.charAt(k))) {
                    k++;
                }
                int e = k;
                while (e < n && Character.isLetter(sql.charAt(e))) {
                    e++;
                }
                return sql.substring(k, e).equalsIgnoreCase("TO") ? Kind.OTHER : Kind.ROLLBACK;
            }
            default:
                return Kind.OTHER;
        }
    }

    private static String cstring(ByteBuffer b) {
        int start = b.position();
        int end = start;
        byte[] a = b.array();
        int limit = b.limit();
        while (end < limit && a[end] != 0) {
            end++;
        }
        if (end >= limit) {
            throw new IllegalArgumentException("unterminated string");
        }
        b.position(end + 1);
        return new String(a, start, end - start, StandardCharsets.UTF_8);
    }
}
