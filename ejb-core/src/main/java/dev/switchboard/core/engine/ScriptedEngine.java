package dev.switchboard.core.engine;

import jakarta.json.JsonObject;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * A deterministic engine driven by its input, for tests. The input is a script of directives
 * separated by {@code ;}, followed by the text to echo:
 * <ul>
 *   <li>{@code sleep <ms>} waits (on a timer; cancellation is honoured when the wait ends);</li>
 *   <li>{@code fail <message>} fails the run with that message;</li>
 *   <li>anything else ends the script and is echoed like {@link EchoEngine} does.</li>
 * </ul>
 * A text with no directive behaves exactly like the echo engine without delay.
 */
public class ScriptedEngine implements AgentEngine {

    private final ScheduledExecutorService timer;

    public ScriptedEngine(ScheduledExecutorService timer) {
        this.timer = timer;
    }

    @Override
    public String name() {
        return "scripted";
    }

    @Override
    public CompletionStage<JsonObject> execute(EngineRequest request) {
        return step(request, request.inputText());
    }

    private CompletionStage<JsonObject> step(EngineRequest request, String script) {
        if (request.cancelled()) {
            return CompletableFuture.failedFuture(new EngineFailure("cancelled"));
        }
        String head = script;
        String rest = "";
        int semi = script.indexOf(';');
        if (semi >= 0) {
            head = script.substring(0, semi);
            rest = script.substring(semi + 1).stripLeading();
        }
        String directive = head.strip();
        if (directive.startsWith("sleep ")) {
            long ms = parseMillis(directive.substring(6).strip());
            if (ms >= 0) {
                String next = rest;
                CompletableFuture<JsonObject> later = new CompletableFuture<>();
                timer.schedule(() -> step(request, next).whenComplete((out, err) -> {
                    if (err != null) {
                        later.completeExceptionally(err);
                    } else {
                        later.complete(out);
                    }
                }), ms, TimeUnit.MILLISECONDS);
                return later;
            }
        }
        if (directive.startsWith("fail ")) {
            return CompletableFuture.failedFuture(new EngineFailure(directive.substring(5).strip()));
        }
        return CompletableFuture.completedFuture(EchoEngine.reply(script, request.deliveryMode()));
    }

    private static long parseMillis(String value) {
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
