package dev.switchboard.core.workspace;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Gives a plain unified diff ({@code diff -u}, what models usually write) the {@code diff --git}
 * line before each file that git's own format has. JGit's parser needs it to tell where one file's
 * hunks end when several files follow each other: without it, the next file's {@code ---} line
 * reads as a removed line of the last hunk. The file boundaries are found by counting each hunk's
 * lines against its header, so a removed line that starts with {@code --} is never mistaken for one.
 * A diff that already has {@code diff --git} lines is returned as it is.
 */
final class UnifiedDiffs {

    private static final Pattern HUNK = Pattern.compile("^@@ -\\d+(?:,(\\d+))? \\+\\d+(?:,(\\d+))? @@.*");

    private UnifiedDiffs() {
    }

    static String withGitHeaders(String diff) {
        if (diff.startsWith("diff --git ") || diff.contains("\ndiff --git ")) {
            return diff;
        }
        String[] lines = diff.split("\n", -1);
        StringBuilder out = new StringBuilder(diff.length() + 64);
        int oldLeft = 0;
        int newLeft = 0;
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i];
            boolean inHunk = oldLeft > 0 || newLeft > 0;
            if (inHunk) {
                if (line.startsWith("-")) {
                    oldLeft--;
                } else if (line.startsWith("+")) {
                    newLeft--;
                } else if (line.startsWith(" ") || line.isEmpty()) {
                    oldLeft--;
                    newLeft--;
                }
                // "\ No newline at end of file" counts for neither side
            } else if (line.startsWith("--- ") && i + 1 < lines.length && lines[i + 1].startsWith("+++ ")) {
                String oldPath = path(line.substring(4), "a/");
                String newPath = path(lines[i + 1].substring(4), "b/");
                String named = newPath.equals("/dev/null") ? oldPath : newPath;
                out.append("diff --git a/").append(named).append(" b/").append(named).append('\n');
            } else {
                Matcher hunk = HUNK.matcher(line);
                if (hunk.matches()) {
                    oldLeft = hunk.group(1) == null ? 1 : Integer.parseInt(hunk.group(1));
                    newLeft = hunk.group(2) == null ? 1 : Integer.parseInt(hunk.group(2));
                }
            }
            out.append(line);
            if (i < lines.length - 1) {
                out.append('\n');
            }
        }
        return out.toString();
    }

    /** A header's path without its tab-separated time stamp and its {@code a/} or {@code b/} prefix. */
    private static String path(String header, String prefix) {
        int tab = header.indexOf('\t');
        String path = (tab < 0 ? header : header.substring(0, tab)).strip();
        return path.startsWith(prefix) ? path.substring(prefix.length()) : path;
    }
}
