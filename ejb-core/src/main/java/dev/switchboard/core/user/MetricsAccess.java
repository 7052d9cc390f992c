package dev.switchboard.core.user;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Optional;
import java.util.Set;

/**
 * Who may read {@code /metrics}: what every user's traffic looks like is the operators' to see.
 * With tokens configured, an operator's token or the scrape token ({@code SWITCHBOARD_METRICS_TOKEN},
 * a token of its own that opens nothing else, for Prometheus); without tokens, whoever the server
 * serves (loopback clients only, and the one user is the operator). Plain: unit tests drive it.
 */
public final class MetricsAccess {

    /** The answer: allowed, or the status and message of the refusal. */
    public record Verdict(boolean allowed, int status, String code, String message) {

        static final Verdict ALLOWED = new Verdict(true, 200, null, null);

        static Verdict unauthorized(String message) {
            return new Verdict(false, 401, "unauthorized", message);
        }
    }

    private final TokenDirectory directory;
    private final Set<String> operators;
    private final Optional<byte[]> scrapeToken;

    /** @throws IllegalArgumentException for a scrape token shorter than {@value TokenDirectory#MIN_TOKEN_LENGTH} characters */
    MetricsAccess(TokenDirectory directory, Set<String> operators, Optional<String> scrapeToken) {
        this.directory = directory;
        this.operators = Set.copyOf(operators);
        scrapeToken.filter(t -> !t.isBlank() && t.strip().length() < TokenDirectory.MIN_TOKEN_LENGTH).ifPresent(t -> {
            throw new IllegalArgumentException("switchboard.metrics.token must have at least " + TokenDirectory.MIN_TOKEN_LENGTH
                    + " characters");
        });
        this.scrapeToken = scrapeToken.map(String::strip).filter(t -> !t.isEmpty())
                .map(t -> t.getBytes(StandardCharsets.UTF_8));
    }

    public Verdict decide(String authorization, boolean loopbackCaller) {
        if (isScrapeToken(authorization)) {
            return Verdict.ALLOWED;
        }
        Authentication auth = directory.authenticate(authorization, loopbackCaller);
        if (auth.user().isEmpty()) {
            return Verdict.unauthorized(auth.refusalMessage() + "; /metrics takes an operator's token or the metrics token");
        }
        if (directory.isOpen() || operators.contains(auth.user().get())) {
            return Verdict.ALLOWED;
        }
        return new Verdict(false, 403, "forbidden", "/metrics is for operators (SWITCHBOARD_AUTH_OPERATORS) and the"
                + " metrics token (SWITCHBOARD_METRICS_TOKEN)");
    }

    private boolean isScrapeToken(String authorization) {
        return scrapeToken.isPresent() && TokenDirectory.bearerToken(authorization)
                .filter(t -> MessageDigest.isEqual(t.getBytes(StandardCharsets.UTF_8), scrapeToken.get())).isPresent();
    }
}
