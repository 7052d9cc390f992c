package dev.switchboard.core.conversation;

import dev.switchboard.core.json.Jsons;
import jakarta.json.JsonException;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.io.StringReader;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * Reads what a message asks for (spec §5). Commands and keywords are matched on the trimmed,
 * lower-cased text; their arguments keep their case. Anything that is not exactly a command is
 * ordinary input, as typed.
 */
public final class Submissions {

    private static final Set<String> SYSTEM_COMMANDS = Set.of("help", "?", "version", "tools", "skills", "ping", "debug",
            "reasoning", "restart", "model");
    private static final Set<String> APPROVE = Set.of("yes", "y", "approve", "ok", "/approve", "/yes", "/y");
    private static final Set<String> ALWAYS = Set.of("always", "a", "yes always", "approve always", "/always", "/a");
    private static final Set<String> DENY = Set.of("no", "n", "deny", "reject", "cancel", "/deny", "/no", "/n");

    private Submissions() {
    }

    public static Submission parse(String content) {
        String trimmed = content.strip();
        String lower = trimmed.toLowerCase(Locale.ROOT);
        List<String> words = trimmed.isEmpty() ? List.of() : Arrays.asList(trimmed.split("\\s+"));
        String head = words.isEmpty() ? "" : words.get(0).toLowerCase(Locale.ROOT);
        List<String> args = words.size() > 1 ? words.subList(1, words.size()) : List.of();
        Submission command = switch (lower) {
            case "/undo" -> new Submission.Undo();
            case "/redo" -> new Submission.Redo();
            case "/interrupt", "/stop" -> new Submission.Interrupt();
            case "/compact" -> new Submission.Compact();
            case "/clear" -> new Submission.Clear();
            case "/heartbeat" -> new Submission.Heartbeat();
            case "/summarize", "/summary" -> new Submission.Summarize();
            case "/suggest" -> new Submission.Suggest();
            case "/thread new", "/new" -> new Submission.NewThread();
            case "/resume" -> new Submission.ListThreads();
            case "/quit", "/exit", "/shutdown" -> new Submission.Quit();
            case "/list" -> new Submission.JobStatus(Optional.empty());
            default -> null;
        };
        if (command != null) {
            return command;
        }
        if (head.equals("/expected")) {
            String expected = trimmed.substring(words.get(0).length()).strip();
            return expected.isEmpty() ? new Submission.UserInput(content) : new Submission.Expected(expected);
        }
        if (head.equals("/thread") && args.size() == 1) {
            return uuid(args.get(0)).<Submission>map(Submission.SwitchThread::new).orElse(new Submission.UserInput(content));
        }
        if (head.equals("/resume") && args.size() == 1) {
            return uuid(args.get(0)).<Submission>map(Submission.Resume::new).orElse(new Submission.UserInput(content));
        }
        if (head.startsWith("/") && SYSTEM_COMMANDS.contains(head.substring(1))) {
            String name = head.substring(1);
            return new Submission.SystemCommand("?".equals(name) ? "help" : name, List.copyOf(args));
        }
        if ((head.equals("/status") || head.equals("/progress")) && args.size() <= 1) {
            return new Submission.JobStatus(args.stream().findFirst());
        }
        if (head.equals("/cancel")) {
            return args.size() == 1 ? new Submission.JobCancel(args.get(0)) : new Submission.UserInput(content);
        }
        if ((head.equals("approve") || head.equals("/approve")) && args.size() == 2) {
            return new Submission.PairingClaim(args.get(0).toLowerCase(Locale.ROOT), args.get(1));
        }
        if (trimmed.startsWith("{")) {
            Optional<Submission> structured = structured(trimmed);
            if (structured.isPresent()) {
                return structured.get();
            }
        }
        if (APPROVE.contains(lower)) {
            return new Submission.ApprovalResponse(true, false);
        }
        if (ALWAYS.contains(lower)) {
            return new Submission.ApprovalResponse(true, true);
        }
        if (DENY.contains(lower)) {
            return new Submission.ApprovalResponse(false, false);
        }
        if (head.equals("/plan")) {
            return new Submission.UserInput("[PLAN MODE] " + trimmed.substring(words.get(0).length()).strip());
        }
        return new Submission.UserInput(content);
    }

    /** Whether the text was a slash command (a bare approval keyword counts only with one, spec §8.1). */
    public static boolean isSlashed(String content) {
        return content.strip().startsWith("/");
    }

    /** {@code {"ExecApproval":{request_id, approved, always?}}}, {@code {"ExternalCallback":…}}, {@code {"GateAuthResolution":…}}. */
    private static Optional<Submission> structured(String json) {
        JsonObject object;
        try (JsonReader reader = Jsons.createReader(new StringReader(json))) {
            object = reader.readObject();
        } catch (JsonException | IllegalStateException e) {
            return Optional.empty();
        }
        if (object.size() != 1) {
            return Optional.empty();
        }
        String tag = object.keySet().iterator().next();
        if (!(object.get(tag) instanceof JsonObject body)) {
            return Optional.empty();
        }
        return switch (tag) {
            case "ExecApproval" -> {
                Optional<UUID> id = body.get("request_id") instanceof JsonString s ? uuid(s.getString())
                        : Optional.empty();
                JsonValue approved = body.get("approved");
                JsonValue always = body.getOrDefault("always", JsonValue.FALSE);
                boolean flags = (approved == JsonValue.TRUE || approved == JsonValue.FALSE)
                        && (always == JsonValue.TRUE || always == JsonValue.FALSE);
                yield id.isPresent() && flags
                        ? Optional.of(new Submission.ExecApproval(id.get(), approved == JsonValue.TRUE, always == JsonValue.TRUE))
                        : Optional.empty();
            }
            case "ExternalCallback" -> Optional.of(new Submission.ExternalCallback(body));
            case "GateAuthResolution" -> Optional.of(new Submission.GateAuthResolution(body));
            default -> Optional.empty();
        };
    }

    /** The UUID {@code text} spells in its canonical 36-character form, if it does. */
    public static Optional<UUID> uuid(String text) {
        if (text.length() != 36) {
            return Optional.empty();
        }
        try {
            return Optional.of(UUID.fromString(text));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }
}
