package dev.switchboard.core.engine;

import dev.switchboard.core.json.Jsons;
import jakarta.json.JsonObject;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * jagc's echo executor: after a fixed delay, answers
 * {@code {"type":"message","text":<input>,"delivery_mode":<mode>}}. The delay is a timer, not a
 * sleeping thread, so thousands of concurrent echo runs cost no threads.
 */
public class EchoEngine implements AgentEngine {

    private final long delayMs;
    private final ScheduledExecutorService timer;

    public EchoEngine(long delayMs, ScheduledExecutorService timer) {
        if (delayMs < 0) {
            throw new IllegalArgumentException("echo delay must not be negative, was " + delayMs);
        }
        this.delayMs = delayMs;
        this.timer = timer;
    }

    @Override
    public String name() {
        return "echo";
    }

    @Override
    public CompletionStage<JsonObject> execute(EngineRequest request) {
        JsonObject output = reply(request.inputText(), request.deliveryMode());
        if (delayMs == 0) {
            return CompletableFuture.completedFuture(output);
        }
        CompletableFuture<JsonObject> result = new CompletableFuture<>();
        timer.schedule(() -> result.complete(output), delayMs, TimeUnit.MILLISECONDS);
        return result;
    }

    static JsonObject reply(String text, String deliveryMode) {
        return Jsons.createObjectBuilder()
                .add("type", "message")
                .add("text", text)
                .add("delivery_mode", deliveryMode)
                .build();
    }
}
