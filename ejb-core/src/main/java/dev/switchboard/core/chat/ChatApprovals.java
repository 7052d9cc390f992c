package dev.switchboard.core.chat;

import dev.switchboard.core.conversation.Approvals;
import dev.switchboard.core.conversation.Submissions;
import dev.switchboard.core.credential.Credentials;
import dev.switchboard.core.engine.EngineFailure;
import dev.switchboard.core.engine.EngineRequest;
import dev.switchboard.core.engine.ToolApprovals;
import dev.switchboard.core.json.Jsons;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonString;
import java.io.StringReader;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * The tool loop's approvals (spec §8) and credentials (§9). A tool that needs the user's credential
 * ({@code switchboard.chat.tool-credentials}) runs with it, or — when the user has not given it —
 * pauses the run on a chat thread until they do. A tool that needs a person
 * ({@code switchboard.chat.tool-approvals}) pauses the run on a chat thread — unless its user
 * answered "always" for it this session and it does not ask every time. Either is refused
 * elsewhere, where nobody could be asked. The credential is asked for first, so a person approves
 * a call that can run.
 */
@ApplicationScoped
public class ChatApprovals implements ToolApprovals {

    /** The member of a kept call that holds its real arguments, sealed. */
    static final String SEALED_ARGUMENTS = "sealed_arguments";
    static final String NOBODY_TO_ASK = "the tool needs a person's approval, which only a chat thread can ask for";
    static final String NOBODY_TO_ASK_CREDENTIAL = "the tool needs the user's credential, which only a chat thread can ask for";

    @Inject
    ChatSettings settings;

    @Inject
    ChatRecords records;

    @Inject
    Credentials credentials;

    @Override
    public CompletionStage<Verdict> decide(EngineRequest request, JsonObject call) {
        String name = call.getString("name", "");
        Approvals.Need need = settings.needOf(name);
        Verdict credential = credentialOf(request, call);
        if (need == Approvals.Need.NEVER && credential.awaitsCredential() == null) {
            return CompletableFuture.completedFuture(credential);
        }
        Optional<UUID> chatThread = request.threadKey() == null ? Optional.empty() : Submissions.uuid(request.threadKey());
        boolean onChat = chatThread.flatMap(id -> records.thread(request.userKey(), id)).isPresent();
        if (!onChat) {
            return CompletableFuture.completedFuture(Verdict.refused(credential.awaitsCredential() != null
                    ? NOBODY_TO_ASK_CREDENTIAL : NOBODY_TO_ASK));
        }
        if (credential.awaitsCredential() != null) {
            return CompletableFuture.completedFuture(credential);
        }
        boolean needsPerson = Approvals.needsApproval(need, false,
                autoApproved(records.autoApproved(request.userKey())).contains(name));
        return CompletableFuture.completedFuture(needsPerson ? Verdict.AWAIT_PERSON : credential);
    }

    /** Every call's secret arguments are redacted wherever it is shown (issue 35), on any thread. */
    @Override
    public JsonObject shown(EngineRequest request, JsonObject call) {
        return settings.redaction().call(call);
    }

    /**
     * A paused call keeps its real arguments sealed with the credentials key, bound to the user and
     * the call, next to the redacted ones: the run's output, the pending approval and the run that
     * carries the answer all hold it so, and only {@link #restored} opens it for the tool.
     */
    @Override
    public JsonObject kept(EngineRequest request, JsonObject call) {
        if (call.containsKey(SEALED_ARGUMENTS)) {
            return call; // kept already (a resumption pausing again)
        }
        JsonObject shown = shown(request, call);
        if (shown.equals(call)) {
            return call;
        }
        return Jsons.createObjectBuilder(shown).add(SEALED_ARGUMENTS, credentials.seal(request.userKey(),
                purpose(call), call.getString("arguments"))).build();
    }

    @Override
    public JsonObject restored(EngineRequest request, JsonObject call) {
        if (!(call.get(SEALED_ARGUMENTS) instanceof JsonString sealed)) {
            return call;
        }
        String arguments = credentials.open(request.userKey(), purpose(call), sealed.getString())
                .orElseThrow(() -> new EngineFailure("the arguments of tool call " + call.getString("call_id", "")
                        + " no longer open: the credentials key changed while it waited"));
        return Jsons.createObjectBuilder(call).remove(SEALED_ARGUMENTS).add("arguments", arguments).build();
    }

    private static String purpose(JsonObject call) {
        return "tool-call:" + call.getString("call_id", "");
    }

    @Override
    public Verdict credentialOf(EngineRequest request, JsonObject call) {
        String name = settings.credentialOf(call.getString("name", ""));
        if (name == null) {
            return Verdict.ALLOWED;
        }
        return credentials.get(request.userKey(), name).map(Verdict::allowedWith)
                .orElseGet(() -> Verdict.awaitCredential(name));
    }

    /** The stored names of the tools a user answered "always" for. */
    static Set<String> autoApproved(String json) {
        Set<String> names = new HashSet<>();
        if (json == null || json.isBlank()) {
            return names;
        }
        try (JsonReader reader = Jsons.createReader(new StringReader(json))) {
            JsonArray list = reader.readArray();
            list.getValuesAs(JsonString.class).forEach(s -> names.add(s.getString()));
        }
        return names;
    }

    static String withTool(String json, String tool) {
        Set<String> names = autoApproved(json);
        names.add(tool);
        var list = Jsons.createArrayBuilder();
        names.stream().sorted().forEach(list::add);
        return list.build().toString();
    }
}
