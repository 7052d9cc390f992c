package dev.switchboard.core.chat;

import dev.switchboard.core.conversation.Approvals;
import dev.switchboard.core.conversation.Submissions;
import dev.switchboard.core.credential.Credentials;
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
        boolean onChat = chatThread.flatMap(records::thread).filter(t -> t.userKey().equals(request.userKey())).isPresent();
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
