package dev.switchboard.core.chat;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import dev.switchboard.core.conversation.Approvals;
import dev.switchboard.core.conversation.Redaction;
import java.time.Duration;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/** The chat gateway's settings, from MicroProfile Config. */
@ApplicationScoped
public class ChatSettings {

    @Inject
    @ConfigProperty(name = "switchboard.chat.session-idle-timeout-s", defaultValue = "604800")
    long sessionIdleTimeoutS;

    @Inject
    @ConfigProperty(name = "switchboard.chat.prune-every-ms", defaultValue = "600000")
    long pruneEveryMs;

    @Inject
    @ConfigProperty(name = "switchboard.chat.tool-approvals", defaultValue = " ")
    String toolApprovals;

    private volatile Map<String, Approvals.Need> needs;

    @Inject
    @ConfigProperty(name = "switchboard.chat.tool-credentials", defaultValue = " ")
    String toolCredentials;

    private volatile Map<String, String> credentials;

    @Inject
    @ConfigProperty(name = "switchboard.chat.auth-ttl-s", defaultValue = "300")
    long authTtlS;

    @Inject
    @ConfigProperty(name = "switchboard.chat.context-limit-tokens", defaultValue = "100000")
    long contextLimitTokens;

    /** Argument names whose values are secrets ({@link Redaction}); empty: the defaults. */
    @Inject
    @ConfigProperty(name = "switchboard.sensitive-names", defaultValue = " ")
    String sensitiveNames;

    private volatile Redaction redaction;

    /** How tool calls are shown everywhere but to their tool. */
    public Redaction redaction() {
        Redaction current = redaction;
        if (current == null) {
            current = sensitiveNames.isBlank() ? Redaction.DEFAULT : Redaction.of(sensitiveNames);
            redaction = current;
        }
        return current;
    }

    /** The context a thread's engine is given may hold this many tokens (spec §11.1's estimate); compaction keeps it under. */
    public long contextLimitTokens() {
        return Math.max(100, contextLimitTokens);
    }

    /**
     * What each tool needs before it runs on a chat thread: {@code name=never|once|always,…}
     * ({@code once}: until the user answers "always" for it in their session); unnamed tools never ask.
     *
     * @throws IllegalStateException for a value that does not parse
     */
    public Approvals.Need needOf(String tool) {
        Map<String, Approvals.Need> parsed = needs;
        if (parsed == null) {
            parsed = parseNeeds(toolApprovals);
            needs = parsed;
        }
        return parsed.getOrDefault(tool, Approvals.Need.NEVER);
    }

    static Map<String, Approvals.Need> parseNeeds(String value) {
        Map<String, Approvals.Need> needs = new HashMap<>();
        for (String entry : value.split(",")) {
            if (entry.isBlank()) {
                continue;
            }
            String[] pair = entry.split("=", 2);
            if (pair.length != 2 || pair[0].isBlank()) {
                throw new IllegalStateException("switchboard.chat.tool-approvals: '" + entry.strip()
                        + "' is not name=never|once|always");
            }
            Approvals.Need need = switch (pair[1].strip().toLowerCase(Locale.ROOT)) {
                case "never" -> Approvals.Need.NEVER;
                case "once" -> Approvals.Need.UNLESS_AUTO_APPROVED;
                case "always" -> Approvals.Need.ALWAYS;
                default -> throw new IllegalStateException("switchboard.chat.tool-approvals: '" + entry.strip()
                        + "' is not name=never|once|always");
            };
            needs.put(pair[0].strip(), need);
        }
        return Map.copyOf(needs);
    }

    /**
     * The credential a tool runs with, by name ({@code tool=credential,…}; {@code http_get} sends
     * it as a bearer token), or null when the tool needs none. A user who has not given it is asked
     * for it (auth mode, spec §9).
     *
     * @throws IllegalStateException for a value that does not parse
     */
    public String credentialOf(String tool) {
        Map<String, String> parsed = credentials;
        if (parsed == null) {
            parsed = parseCredentials(toolCredentials);
            credentials = parsed;
        }
        return parsed.get(tool);
    }

    static Map<String, String> parseCredentials(String value) {
        Map<String, String> names = new HashMap<>();
        for (String entry : value.split(",")) {
            if (entry.isBlank()) {
                continue;
            }
            String[] pair = entry.split("=", 2);
            if (pair.length != 2 || pair[0].isBlank() || !pair[1].strip().matches("[A-Za-z0-9_.-]{1,64}")) {
                throw new IllegalStateException("switchboard.chat.tool-credentials: '" + entry.strip()
                        + "' is not tool=name (a name of 1 to 64 letters, digits, '_', '.', '-')");
            }
            names.put(pair[0].strip(), pair[1].strip());
        }
        return Map.copyOf(names);
    }

    /** How long a thread waits for a credential it asked for (spec §9: 300 s). */
    public Duration authTtl() {
        return Duration.ofSeconds(Math.max(1, authTtlS));
    }

    /** A session idle longer than this is pruned (spec §2.5; default 7 days). */
    public Duration sessionIdleTimeout() {
        return Duration.ofSeconds(Math.max(1, sessionIdleTimeoutS));
    }

    /** How often one instance looks for idle sessions (default 10 minutes; the first look is one period after start). */
    public long pruneEveryMs() {
        return Math.max(100, pruneEveryMs);
    }
}
