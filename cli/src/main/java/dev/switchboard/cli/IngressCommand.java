package dev.switchboard.cli;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.InvalidKeyException;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** Sends test events through the ingress doors: a signed GitHub delivery, or a generic envelope. */
@Command(name = "ingress", description = "Ingress: send a (signed) GitHub webhook, or a generic event.")
final class IngressCommand {

    @Spec
    CommandSpec spec;

    @Command(name = "send", description = {"Delivers a GitHub webhook to POST /ingress/github/webhook, signed with",
            "X-Hub-Signature-256 when a secret is given (--secret or $SWITCHBOARD_INGRESS_GITHUB_SECRET).",
            "Prints '<status> <event_id> <session_key> <run_id>'."})
    int send(@Option(names = "--event", defaultValue = "issue_comment", description = "issue_comment, issues or pull_request; any event with --body-file (default: ${DEFAULT-VALUE})") String event,
             @Option(names = "--action", description = "the payload's action (default: created for comments, opened otherwise)") String action,
             @Option(names = "--repo", defaultValue = "acme/widgets", description = "repository full name (default: ${DEFAULT-VALUE})") String repo,
             @Option(names = "--number", defaultValue = "1", description = "issue or pull request number (default: ${DEFAULT-VALUE})") long number,
             @Option(names = "--text", defaultValue = "please take a look", description = "comment body or title") String text,
             @Option(names = "--body-file", description = "send this file as the payload instead") Path bodyFile,
             @Option(names = "--delivery", description = "X-GitHub-Delivery, the dedupe key (default: a fresh UUID)") String delivery,
             @Option(names = "--secret", description = "webhook secret to sign with") String secret,
             @Option(names = "--json", description = "print the answer as JSON") boolean json) throws IOException {
        String body = bodyFile != null ? Files.readString(bodyFile, StandardCharsets.UTF_8) : payload(event, action, repo, number, text).toString();
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("X-GitHub-Event", event);
        headers.put("X-GitHub-Delivery", delivery != null ? delivery : UUID.randomUUID().toString());
        Switchboard app = Switchboard.of(spec);
        String key = secret != null ? secret : app.env("SWITCHBOARD_INGRESS_GITHUB_SECRET");
        if (key != null && !key.isEmpty()) {
            headers.put("X-Hub-Signature-256", signature(key, body.getBytes(StandardCharsets.UTF_8)));
        }
        JsonObject answer = app.api().call("POST", "/ingress/github/webhook", body, headers, Duration.ZERO).object();
        print(answer, json);
        return 0;
    }

    @Command(name = "event", description = "Posts a generic event envelope to POST /ingress/events.")
    int event(@Option(names = "--source", required = true, description = "who sends it, e.g. ci") String source,
              @Option(names = "--type", required = true, description = "what happened, e.g. ci.build.failed") String type,
              @Option(names = "--repo", description = "scope.repo") String repo,
              @Option(names = "--instruction", description = "what the agent is asked (payload.instruction)") String instruction,
              @Option(names = "--session-key", description = "route to this thread (payload.session_key)") String sessionKey,
              @Option(names = "--dedupe-key", description = "events with the same key run once") String dedupeKey,
              @Option(names = "--json", description = "print the answer as JSON") boolean json) {
        JsonObjectBuilder envelope = Json.createObjectBuilder().add("source", source).add("type", type);
        if (repo != null) {
            envelope.add("scope", Json.createObjectBuilder().add("repo", repo));
        }
        if (dedupeKey != null) {
            envelope.add("dedupe_key", dedupeKey);
        }
        JsonObjectBuilder payload = Json.createObjectBuilder();
        if (instruction != null) {
            payload.add("instruction", instruction);
        }
        if (sessionKey != null) {
            payload.add("session_key", sessionKey);
        }
        envelope.add("payload", payload);
        print(Switchboard.of(spec).api().post("/ingress/events", envelope.build()), json);
        return 0;
    }

    private void print(JsonObject answer, boolean json) {
        PrintWriter out = spec.commandLine().getOut();
        out.println(json ? answer.toString() : String.join(" ", Texts.string(answer, "status"), Texts.string(answer, "event_id"),
                Texts.string(answer, "session_key"), Texts.string(answer, "run_id")).stripTrailing()
                + (answer.containsKey("reason") ? " " + Texts.string(answer, "reason") : ""));
    }

    /** A minimal delivery of the common events, shaped as GitHub sends them. */
    static JsonObject payload(String event, String action, String repo, long number, String text) {
        JsonObjectBuilder body = Json.createObjectBuilder().add("repository", Json.createObjectBuilder().add("full_name", repo));
        switch (event) {
            case "issue_comment" -> body.add("action", action != null ? action : "created")
                    .add("issue", Json.createObjectBuilder().add("number", number))
                    .add("comment", Json.createObjectBuilder().add("id", ThreadLocalRandom.current().nextLong(1, Long.MAX_VALUE)).add("body", text));
            case "issues" -> body.add("action", action != null ? action : "opened")
                    .add("issue", Json.createObjectBuilder().add("number", number).add("title", text));
            case "pull_request" -> body.add("action", action != null ? action : "opened").add("number", number)
                    .add("pull_request", Json.createObjectBuilder().add("number", number).add("title", text));
            default -> throw new CliException("no built-in payload for event '" + event + "': give one with --body-file");
        }
        return body.build();
    }

    /** GitHub's {@code X-Hub-Signature-256}: {@code sha256=} and the HMAC-SHA256 of the raw body, in hex. */
    static String signature(String secret, byte[] body) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            return "sha256=" + HexFormat.of().formatHex(mac.doFinal(body));
        } catch (NoSuchAlgorithmException | InvalidKeyException e) {
            throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
        }
    }
}
