package dev.switchboard.core.user;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.net.InetAddress;
import java.util.Arrays;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/** The configured {@link TokenDirectory} ({@code switchboard.auth.tokens}), for the web modules. */
@ApplicationScoped
public class Authenticator {

    @Inject
    @ConfigProperty(name = "switchboard.auth.tokens")
    Optional<String> tokensConfig;

    /** Users who may see the whole server (its log lines, every user's journal entries): {@code alice,bob}. */
    @Inject
    @ConfigProperty(name = "switchboard.auth.operators")
    Optional<String> operatorsConfig;

    /** A token of its own for scraping {@code /metrics} (Prometheus), which opens nothing else. */
    @Inject
    @ConfigProperty(name = "switchboard.metrics.token")
    Optional<String> metricsTokenConfig;

    private TokenDirectory directory;
    private Set<String> operators;
    private MetricsAccess metricsAccess;

    @PostConstruct
    void load() {
        directory = TokenDirectory.parse(tokensConfig.orElse(""));
        operators = Arrays.stream(operatorsConfig.orElse("").split(",")).map(String::strip)
                .filter(s -> !s.isEmpty()).collect(Collectors.toUnmodifiableSet());
        metricsAccess = new MetricsAccess(directory, operators, metricsTokenConfig);
    }

    /** Whether a caller connected from {@code remoteAddress} may read {@code /metrics} ({@link MetricsAccess}). */
    public MetricsAccess.Verdict metricsAccess(String authorization, String remoteAddress) {
        return metricsAccess.decide(authorization, isLoopback(remoteAddress));
    }

    /**
     * True for a configured operator, and for the single {@value TokenDirectory#LOCAL_USER} user
     * when no tokens are configured (then only loopback clients are served: whoever runs the
     * server operates it).
     */
    public boolean isOperator(String user) {
        return directory.isOpen() ? TokenDirectory.LOCAL_USER.equals(user) : operators.contains(user);
    }

    public Authentication authenticate(String authorization, boolean loopbackCaller) {
        return directory.authenticate(authorization, loopbackCaller);
    }

    /** Authenticates a caller connected from {@code remoteAddress} (an IP literal, as servlets report it). */
    public Authentication authenticateFrom(String authorization, String remoteAddress) {
        return authenticate(authorization, isLoopback(remoteAddress));
    }

    static boolean isLoopback(String address) {
        try {
            return address != null && InetAddress.getByName(address).isLoopbackAddress();
        } catch (Exception e) {
            return false;
        }
    }
}
