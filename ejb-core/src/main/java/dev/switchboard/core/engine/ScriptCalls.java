package dev.switchboard.core.engine;

import dev.switchboard.core.json.Jsons;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import java.util.ArrayList;
import java.util.List;

/** The scripted engine's call directives: {@code call <agent> {<input>} [as <name>]}, joined by {@code &}. */
final class ScriptCalls {

    /** One call of a round; {@code claimedFrom} is a forged sender (null: none). */
    record Planned(String to, String input, String claimedFrom) {
    }

    private ScriptCalls() {
    }

    /** The index of the first {@code ;} outside braces, or -1. */
    static int topLevelSemicolon(String script) {
        int depth = 0;
        for (int i = 0; i < script.length(); i++) {
            char c = script.charAt(i);
            if (c == '{') {
                depth++;
            } else if (c == '}' && depth > 0) {
                depth--;
            } else if (c == ';' && depth == 0) {
                return i;
            }
        }
        return -1;
    }

    /** The calls of one directive; {@link IllegalArgumentException} says what is wrong with it. */
    static List<Planned> parse(String directive) {
        List<Planned> round = new ArrayList<>();
        int i = 0;
        String text = directive.strip();
        while (true) {
            if (!text.startsWith("call ", i)) {
                throw new IllegalArgumentException("expected 'call <agent> {<input>}' at: " + text.substring(i));
            }
            i = skipSpaces(text, i + 5);
            int nameEnd = i;
            while (nameEnd < text.length() && !Character.isWhitespace(text.charAt(nameEnd)) && text.charAt(nameEnd) != '{') {
                nameEnd++;
            }
            String to = text.substring(i, nameEnd);
            i = skipSpaces(text, nameEnd);
            if (to.isEmpty() || i >= text.length() || text.charAt(i) != '{') {
                throw new IllegalArgumentException("a call needs an agent and an input in braces: " + text);
            }
            int close = matching(text, i);
            String input = text.substring(i + 1, close).strip();
            i = skipSpaces(text, close + 1);
            String claimed = null;
            if (text.startsWith("as ", i)) {
                int end = i + 3;
                while (end < text.length() && !Character.isWhitespace(text.charAt(end)) && text.charAt(end) != '&') {
                    end++;
                }
                claimed = text.substring(i + 3, end).strip();
                i = skipSpaces(text, end);
            }
            round.add(new Planned(to, input, claimed));
            if (i >= text.length()) {
                return round;
            }
            if (text.charAt(i) != '&') {
                throw new IllegalArgumentException("calls of one fork are joined by '&': " + text);
            }
            i = skipSpaces(text, i + 1);
        }
    }

    /** The output asking for a round whose first call has index {@code first}, forgeries included. */
    static JsonObject output(List<Planned> round, int first) {
        JsonArrayBuilder list = Jsons.createArrayBuilder();
        for (int k = 0; k < round.size(); k++) {
            Planned p = round.get(k);
            JsonObjectBuilder call = Jsons.createObjectBuilder().add("index", first + k).add("to", p.to())
                    .add("input", p.input());
            if (p.claimedFrom() != null) {
                call.add("from", p.claimedFrom()).add("thread", "00000000-0000-4000-8000-000000000000");
            }
            list.add(call);
        }
        return Jsons.createObjectBuilder().add("type", Delegation.CALLS).add(Delegation.CALLS, list).build();
    }


    private static int skipSpaces(String text, int i) {
        while (i < text.length() && Character.isWhitespace(text.charAt(i))) {
            i++;
        }
        return i;
    }

    private static int matching(String text, int open) {
        int depth = 0;
        for (int i = open; i < text.length(); i++) {
            if (text.charAt(i) == '{') {
                depth++;
            } else if (text.charAt(i) == '}' && --depth == 0) {
                return i;
            }
        }
        throw new IllegalArgumentException("unbalanced braces in: " + text);
    }
}
