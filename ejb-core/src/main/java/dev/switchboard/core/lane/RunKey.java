package dev.switchboard.core.lane;

import java.util.regex.Pattern;

/**
 * A payload column the features find runs by — the turn a run belongs to, what kind of run it is —
 * named by the features beside their {@link PayloadColumns}. The lane reads its runs by it without
 * knowing what it means; the name goes into a statement's text, so it must be a plain column name.
 */
public record RunKey(String column) {

    private static final Pattern COLUMN = Pattern.compile("[a-z_][a-z0-9_]*");

    public RunKey {
        if (column == null || !COLUMN.matcher(column).matches()) {
            throw new IllegalArgumentException("not a column name: " + column);
        }
    }

    /**
     * A column expression for a run's read ({@link PayloadColumns#runColumns}, over {@code runs r}):
     * how many runs share the run's value of this key, the run itself included (0 when it has none).
     */
    public String countSharing() {
        return "(SELECT count(*) FROM runs o WHERE o." + column + " = r." + column + ")";
    }
}
