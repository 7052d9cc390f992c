package dev.switchboard.it;

/** Reading the docs' examples: the shell blocks a reader pastes. */
final class Markdown {

    private static final String BASH = "```bash\n";

    private Markdown() {
    }

    /** The first {@code ```bash} block after the first occurrence of {@code marker} in {@code text}. */
    static String bashBlockAfter(String text, String marker) {
        int at = text.indexOf(marker);
        if (at < 0) {
            throw new AssertionError("no \"" + marker + "\" in the document");
        }
        int start = text.indexOf(BASH, at);
        if (start < 0) {
            throw new AssertionError("no bash block after \"" + marker + "\"");
        }
        start += BASH.length();
        return text.substring(start, text.indexOf("```", start));
    }
}
