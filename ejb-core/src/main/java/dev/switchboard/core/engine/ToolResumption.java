package dev.switchboard.core.engine;

import dev.switchboard.core.json.Jsons;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonValue;
import java.io.StringReader;
import java.util.List;
import java.util.Optional;

/**
 * A run that carries on a tool loop a person paused: the approval request it answers, the calls of
 * the model's message that were left — the one that waited for approval first — and the person's
 * answer ({@code always}: approved for the rest of the session). Approved, the engine
 * runs the first call as it is and puts the others to {@link ToolApprovals} again, then goes on
 * with the model; rejected, every call gets the rejection as its output and the run answers
 * {@code rejection} without calling the model.
 *
 * <p>{@code recheck}: the loop waited for the user's credential, which is now given — every call
 * left is put to {@link ToolApprovals} again (it may yet wait for a person), then the loop goes on.
 *
 * <p>Only the server makes such runs (their kind is {@code resumption}, and their source
 * {@link #SOURCE}, which no API accepts), so no message can pose as an approval.
 */
public record ToolResumption(String requestId, List<JsonObject> calls, boolean approved, boolean always,
        String rejection, boolean recheck) {

    /** The source of a resumption's run. */
    public static final String SOURCE = "chat:approval";
    /** The input item type that carries a resumption; it never joins the thread's history. */
    public static final String ITEM_TYPE = "approval_response";

    public ToolResumption {
        calls = List.copyOf(calls);
    }

    /** A person's answer to an approval. */
    public ToolResumption(String requestId, List<JsonObject> calls, boolean approved, boolean always, String rejection) {
        this(requestId, calls, approved, always, rejection, false);
    }

    /** The loop goes on after the user gave the credential its calls waited for. */
    public static ToolResumption afterCredential(String requestId, List<JsonObject> calls) {
        return new ToolResumption(requestId, calls, true, false, null, true);
    }

    public JsonObject toJson() {
        JsonArrayBuilder list = Jsons.createArrayBuilder();
        calls.forEach(list::add);
        var json = Jsons.createObjectBuilder().add("request_id", requestId).add("calls", list).add("approved", approved)
                .add("always", always);
        if (rejection != null) {
            json.add("rejection", rejection);
        }
        if (recheck) {
            json.add("recheck", true);
        }
        return json.build();
    }

    /** The resumption a run's input text holds; empty when it holds none. */
    public static Optional<ToolResumption> parse(String text) {
        if (text == null || !text.startsWith("{")) {
            return Optional.empty();
        }
        try (JsonReader reader = Jsons.createReader(new StringReader(text))) {
            JsonObject json = reader.readObject();
            List<JsonObject> calls = json.getJsonArray("calls").getValuesAs(JsonObject.class);
            JsonValue rejection = json.get("rejection");
            return Optional.of(new ToolResumption(json.getString("request_id"), calls, json.getBoolean("approved"),
                    json.getBoolean("always", false), rejection instanceof jakarta.json.JsonString s ? s.getString() : null,
                    json.getBoolean("recheck", false)));
        } catch (RuntimeException e) {
            return Optional.empty();
        }
    }

    /** The input item of a resumption's run: its text is the resumption. */
    public JsonObject inputItem() {
        return Jsons.createObjectBuilder().add("type", ITEM_TYPE).add("role", "system")
                .add("content", Jsons.createArrayBuilder().add(Jsons.createObjectBuilder().add("type", "input_text")
                        .add("text", toJson().toString())))
                .build();
    }
}
