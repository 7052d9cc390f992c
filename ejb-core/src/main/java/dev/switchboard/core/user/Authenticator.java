package dev.switchboard.core.user;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.net.InetAddress;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/** The configured {@link TokenDirectory} ({@code switchboard.auth.tokens}), for the web modules. */
@ApplicationScoped
public class Authenticator {

    @Inject
    @ConfigProperty(name = "switchboard.auth.tokens")
    Optional<String> tokensConfig;

    private TokenDirectory directory;

    @PostConstruct
    void load() {
        directory = TokenDirectory.parse(tokensConfig.orElse(""));
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
