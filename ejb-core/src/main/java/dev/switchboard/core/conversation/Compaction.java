package dev.switchboard.core.conversation;

import dev.switchboard.core.engine.ClientCall;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Compacting a thread's turns (spec §11.2): truncate to the newest {@code k}; summarise the older
 * turns through the model, archive the summary in the user's workspace and keep {@code k}; or
 * archive the older turns themselves and keep 10. A failed model call changes nothing; a failed
 * workspace write keeps every turn, so no turn is ever lost to compaction. The summary also opens
 * the kept context (decision I10).
 */
public final class Compaction {

    static final String SUMMARY_INSTRUCTIONS = "Summarize the conversation below as bullet points: the decisions"
            + " made, the information learned, the actions taken and their outcomes. Be concise.";
    static final int WORKSPACE_KEEP = 10;
    private static final DateTimeFormatter DAY = DateTimeFormatter.ofPattern("yyyy-MM-dd").withZone(ZoneOffset.UTC);
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm").withZone(ZoneOffset.UTC);

    /** Summarises a transcript through the model. */
    public interface Summarizer {
        String summarize(String instructions, String transcript) throws Exception;
    }

    /** The session user's workspace. */
    public interface Workspace {
        void append(String path, String text) throws Exception;
    }

    public record Result(int turnsRemoved, long tokensBefore, long tokensAfter, boolean summaryWritten,
            Optional<String> summary) {
    }

    /** The model call failed; the turns are as they were. */
    public static final class Failed extends Exception {
        private static final long serialVersionUID = 1L;

        Failed(String message, Throwable cause) {
            super(message, cause);
        }
    }

    private Compaction() {
    }

    public static Result compact(TurnLog log, ContextMonitor.Strategy strategy, Optional<Workspace> workspace,
            Summarizer model, Instant now) throws Failed {
        long before = tokens(log);
        if (strategy instanceof ContextMonitor.Truncate t) {
            return new Result(log.truncate(t.keepRecent()), before, tokens(log), false, Optional.empty());
        }
        if (strategy instanceof ContextMonitor.Summarize s) {
            return summarize(log, s.keepRecent(), workspace, model, now, before);
        }
        return workspace.isEmpty() // MoveToWorkspace
                ? new Result(log.truncate(5), before, tokens(log), false, Optional.empty())
                : archive(log, workspace.get(), now, before);
    }

    private static Result summarize(TurnLog log, int keep, Optional<Workspace> workspace, Summarizer model, Instant now,
            long before) throws Failed {
        List<Turn> turns = log.turns();
        if (turns.size() <= keep) {
            return new Result(0, before, before, false, Optional.empty());
        }
        String transcript = "Please summarize this conversation:\n\n" + turns.subList(0, turns.size() - keep).stream()
                .map(t -> "User: " + t.userInput() + t.response().map(r -> "\n\nAssistant: " + r).orElse(""))
                .collect(Collectors.joining("\n\n"));
        String summary;
        try {
            summary = model.summarize(SUMMARY_INSTRUCTIONS, transcript);
        } catch (Exception e) {
            throw new Failed("the model could not summarise the conversation: " + e.getMessage(), e);
        }
        boolean written = false;
        if (workspace.isPresent()) {
            try {
                workspace.get().append(dailyPath(now), "\n## Context Summary (" + TIME.format(now) + " UTC)\n\n" + summary + "\n");
                written = true;
            } catch (Exception e) {
                return new Result(0, before, before, false, Optional.of(summary)); // keep every turn
            }
        }
        int removed = log.truncate(keep);
        log.summarised(summary);
        return new Result(removed, before, tokens(log), written, Optional.of(summary));
    }

    private static Result archive(TurnLog log, Workspace workspace, Instant now, long before) {
        List<Turn> turns = log.turns();
        if (turns.size() <= WORKSPACE_KEEP) {
            return new Result(0, before, before, false, Optional.empty());
        }
        try {
            workspace.append(dailyPath(now), "\n## Archived Context (" + TIME.format(now) + " UTC)\n\n"
                    + format(turns.subList(0, turns.size() - WORKSPACE_KEEP)) + "\n");
        } catch (Exception e) {
            return new Result(0, before, before, false, Optional.empty());
        }
        int removed = log.truncate(WORKSPACE_KEEP);
        return new Result(removed, before, tokens(log), true, Optional.empty());
    }

    /** Turns as archived: {@code **Turn n**}, the user's input, the agent's reply and the tools used. */
    static String format(List<Turn> turns) {
        return turns.stream().map(t -> {
            StringBuilder b = new StringBuilder("**Turn ").append(t.turnNumber() + 1).append("**\nUser: ").append(t.userInput());
            t.response().ifPresent(r -> b.append("\nAgent: ").append(r));
            if (!t.toolCalls().isEmpty()) {
                b.append("\nTools: ").append(t.toolCalls().stream().map(Turn.ToolCall::name).collect(Collectors.joining(", ")));
            }
            return b.toString();
        }).collect(Collectors.joining("\n\n"));
    }

    static String dailyPath(Instant now) {
        return "daily/" + DAY.format(now) + ".md";
    }

    static long tokens(TurnLog log) {
        return ContextMonitor.tokens(log.messages().stream().map(ClientCall::text).toList());
    }
}
