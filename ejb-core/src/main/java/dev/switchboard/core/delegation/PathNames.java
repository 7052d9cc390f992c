package dev.switchboard.core.delegation;

import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Paths are lists of segments, never split on a separator (X2): a segment is a listener name,
 * optionally followed by {@code #n} when a sibling of that name is live under the same parent
 * (§3.3). Names allow neither {@code .} nor {@code #}, so the readable form (segments joined by
 * {@code .}) and the ordinal stay unambiguous.
 */
public final class PathNames {

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_-]{1,64}");
    private static final SecureRandom RANDOM = new SecureRandom();

    private PathNames() {
    }

    /** True for a name a listener (agent or capability) may have. */
    public static boolean isValidName(String name) {
        return name != null && NAME.matcher(name).matches();
    }

    /** A new session root: {@code sess-} and 16 lowercase hex characters. */
    public static String newRoot() {
        byte[] bytes = new byte[8];
        RANDOM.nextBytes(bytes);
        return "sess-" + HexFormat.of().formatHex(bytes);
    }

    /** The segment a new child for {@code listener} takes beside the {@code live} siblings. */
    public static String childSegment(String listener, Set<String> live) {
        if (!live.contains(listener)) {
            return listener;
        }
        int n = 2;
        while (live.contains(listener + "#" + n)) {
            n++;
        }
        return listener + "#" + n;
    }

    /** The listener a segment names (its ordinal dropped). */
    public static String listenerOf(String segment) {
        int hash = segment.indexOf('#');
        return hash < 0 ? segment : segment.substring(0, hash);
    }

    /** The readable form, for the trusted core, the journal and operators only. */
    public static String readable(List<String> segments) {
        return String.join(".", segments);
    }

    /**
     * A name cut to the 256 characters a call slot's or the journal's {@code to_name} holds (a refused
     * call may name anything).
     */
    static String clip(String name) {
        return name.length() <= 256 ? name : name.substring(0, 256);
    }
}
