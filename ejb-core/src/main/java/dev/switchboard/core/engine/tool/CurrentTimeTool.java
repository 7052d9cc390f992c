package dev.switchboard.core.engine.tool;

import dev.switchboard.core.json.Jsons;
import jakarta.json.JsonObject;
import java.time.Clock;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/** {@code current_time}: the instance's clock as an RFC 3339 UTC time, to the second. */
public final class CurrentTimeTool implements FunctionTool {

    private final Clock clock;

    public CurrentTimeTool(Clock clock) {
        this.clock = clock;
    }

    @Override
    public String name() {
        return "current_time";
    }

    @Override
    public String description() {
        return "Returns the current date and time in UTC (RFC 3339).";
    }

    @Override
    public JsonObject parameters() {
        return Jsons.createObjectBuilder().add("type", "object").add("properties", Jsons.createObjectBuilder())
                .add("additionalProperties", false).build();
    }

    @Override
    public CompletionStage<String> call(JsonObject arguments) {
        return CompletableFuture.completedFuture(clock.instant().truncatedTo(ChronoUnit.SECONDS).toString());
    }
}
