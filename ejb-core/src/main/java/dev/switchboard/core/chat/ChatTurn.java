package dev.switchboard.core.chat;

import dev.switchboard.core.lifecycle.Lifecycle;
import dev.switchboard.core.run.RunView;
import dev.switchboard.core.turn.TurnItem;
import dev.switchboard.core.turn.TurnQueries;
import jakarta.json.JsonObject;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * One turn of a chat thread's history (spec §13.2 {@code TurnInfo}), from the run that carried it.
 *
 * @param state the spec's turn state: {@code Processing}, {@code Completed}, {@code Failed} or {@code Interrupted}
 * @param userInput the texts it was given, joined by newlines (several when messages waited merged)
 * @param response the reply, null until it completed
 * @param error why it failed or was interrupted, else null
 */
public record ChatTurn(long seq, String turnId, String runId, String userInput, String state, String response,
        String error, long startedAt, Long completedAt) {

    /**
     * The turns of a page of a thread's runs, oldest first. The runs of messages merged into a
     * later turn are left out: that turn carries their text.
     */
    public static List<ChatTurn> of(TurnQueries.Conversation conversation) {
        Map<String, List<String>> inputs = new LinkedHashMap<>();
        for (TurnItem item : conversation.items()) {
            if ("user".equals(item.role()) && "message".equals(item.content().getString("type", "message"))) {
                inputs.computeIfAbsent(item.runId(), r -> new ArrayList<>()).add(text(item.content()));
            }
        }
        List<ChatTurn> turns = new ArrayList<>();
        for (RunView run : conversation.runs()) {
            if ("superseded".equals(run.errorCode())) {
                continue;
            }
            turns.add(new ChatTurn(run.threadSeq(), run.turnId(), run.runId(),
                    String.join("\n", inputs.getOrDefault(run.runId(), List.of())), state(run),
                    reply(run.outputJson()), run.errorMessage(),
                    run.createdAt(), run.finishedAt()));
        }
        return turns;
    }

    /** The run's reply; null for none (a turn that paused for an approval answers nothing). */
    private static String reply(String outputJson) {
        String text = outputJson == null ? null : Lifecycle.replyText(outputJson);
        return text == null || text.isEmpty() ? null : text;
    }

    static String state(RunView run) {
        if (!run.isTerminal()) {
            return "Processing";
        }
        if ("succeeded".equals(run.status())) {
            return "Completed";
        }
        return "interrupted".equals(run.errorCode()) ? "Interrupted" : "Failed";
    }

    private static String text(JsonObject message) {
        return message.getJsonArray("content").getValuesAs(JsonObject.class).stream()
                .map(part -> part.getString("text", ""))
                .collect(Collectors.joining("\n"));
    }
}
