package dev.switchboard.core.ingress;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The decision and action a {@code session.announce} reports, derived from an agent's reply
 * (holon-serve spec §12.2), with Switchboard's closed decision enum (H17): anything outside
 * {@code issue-solve | pr-review | pr-fix | no-op | unknown} is {@code unknown}, the original kept
 * in {@code decisionRaw}.
 */
public record AnnounceOutcome(String decision, String decisionRaw, String action) {

    public static final Set<String> DECISIONS = Set.of("issue-solve", "pr-review", "pr-fix", "no-op", "unknown");
    private static final Set<String> NO_OP_DECISIONS = Set.of("no-op", "noop", "no-op.", "none", "none-required");
    private static final Pattern DECISION_LINE = Pattern.compile("(?im)^\\s*decision\\s*:\\s*(.*)$");
    private static final Pattern ACTION_LINE = Pattern.compile("(?im)^\\s*action taken\\s*:\\s*(.*)$");
    private static final Map<String, String> DECISION_ALIASES = Map.of(
            "issue-solve", "issue-solve", "issuesolve", "issue-solve",
            "pr-review", "pr-review", "prreview", "pr-review",
            "pr-fix", "pr-fix", "prfix", "pr-fix",
            "no-op", "no-op", "noop", "no-op", "none", "no-op", "no action", "no-op");
    private static final Map<String, String> ACTION_ALIASES = Map.ofEntries(
            Map.entry("opened_pr", "opened_pr"), Map.entry("opened-pr", "opened_pr"),
            Map.entry("opened pr", "opened_pr"), Map.entry("created pull request", "opened_pr"),
            Map.entry("posted_review", "posted_review"), Map.entry("posted-review", "posted_review"),
            Map.entry("posted review", "posted_review"),
            Map.entry("updated_branch", "updated_branch"), Map.entry("updated-branch", "updated_branch"),
            Map.entry("updated branch", "updated_branch"), Map.entry("pushed commit", "updated_branch"),
            Map.entry("commented", "commented"), Map.entry("posted comment", "commented"),
            Map.entry("none_required", "none_required"), Map.entry("none-required", "none_required"),
            Map.entry("none required", "none_required"), Map.entry("none", "none_required"),
            Map.entry("no action required", "none_required"));
    /** Decision inference from free text: first rule whose phrase occurs wins. */
    private static final List<Map.Entry<String, List<String>>> DECISION_PHRASES = List.of(
            Map.entry("no-op", List.of("no-op", "no op", "none required", "no action required")),
            Map.entry("pr-fix", List.of("pr-fix", "pr fix", "pull request fix", "github-pr-fix")),
            Map.entry("pr-review", List.of("pr-review", "pr review", "pull request review", "github-review",
                    "posted review")),
            Map.entry("issue-solve", List.of("issue-solve", "issue solve", "github-issue-solve", "opened pr",
                    "created pull request")));
    private static final List<Map.Entry<String, List<String>>> ACTION_PHRASES = List.of(
            Map.entry("opened_pr", List.of("opened pr", "created pull request")),
            Map.entry("posted_review", List.of("posted review")),
            Map.entry("updated_branch", List.of("updated branch", "pushed commit")),
            Map.entry("commented", List.of("commented", "posted comment")));

    /**
     * From explicit fields when the executor reports them (null or blank otherwise), else from the
     * reply text.
     */
    public static AnnounceOutcome derive(String decisionField, String actionField, String text) {
        String body = text == null ? "" : text;
        String rawDecision = present(decisionField) ? decisionField : explicit(DECISION_LINE, body);
        String decision = normaliseDecision(rawDecision);
        String raw = null;
        if (decision == null) {
            decision = infer(DECISION_PHRASES, body.toLowerCase(Locale.ROOT), "unknown");
        } else if (!DECISIONS.contains(decision)) {
            raw = rawDecision.strip();
            decision = "unknown";
        }
        String rawAction = present(actionField) ? actionField : explicit(ACTION_LINE, body);
        String action = present(rawAction) ? normaliseAction(rawAction)
                : infer(ACTION_PHRASES, body.toLowerCase(Locale.ROOT), "no-op".equals(decision) ? "none_required" : "");
        return new AnnounceOutcome(decision, raw, action);
    }

    /** Holon's bridge filter (§12.3): announcements of no-op decisions are not shown on {@code main}. */
    public static boolean isNoOp(String decision) {
        String d = decision == null ? "" : decision.strip().toLowerCase(Locale.ROOT).replace('_', '-');
        return NO_OP_DECISIONS.contains(d.isEmpty() ? "unknown" : d);
    }

    public boolean isNoOp() {
        return isNoOp(decision);
    }

    /** Lower-cased, {@code _} → {@code -}, aliases folded; null when empty or {@code unknown}. */
    static String normaliseDecision(String value) {
        if (!present(value)) {
            return null;
        }
        String d = value.strip().toLowerCase(Locale.ROOT).replace('_', '-');
        if (d.isEmpty() || d.equals("unknown")) {
            return null;
        }
        return DECISION_ALIASES.getOrDefault(d, d);
    }

    static String normaliseAction(String value) {
        String a = value.strip().toLowerCase(Locale.ROOT);
        String alias = ACTION_ALIASES.get(a);
        if (alias != null) {
            return alias;
        }
        return Texts.trim(a.replaceAll("[^a-z0-9]+", "_"), "_");
    }

    private static String explicit(Pattern label, String text) {
        Matcher m = label.matcher(text);
        if (!m.find()) {
            return null;
        }
        return Texts.trim(m.group(1), " -*`\t\r");
    }

    private static String infer(List<Map.Entry<String, List<String>>> rules, String lowerText, String fallback) {
        for (Map.Entry<String, List<String>> rule : rules) {
            for (String phrase : rule.getValue()) {
                if (lowerText.contains(phrase)) {
                    return rule.getKey();
                }
            }
        }
        return fallback;
    }

    private static boolean present(String s) {
        return s != null && !s.isBlank();
    }
}
