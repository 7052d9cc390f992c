package dev.switchboard.ws;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/** WebSocket settings, from MicroProfile Config. */
@ApplicationScoped
public class SocketSettings {

    @Inject
    @ConfigProperty(name = "switchboard.ws.allowed-origins")
    Optional<String> allowedOrigins;

    /** The largest text frame a client may send; larger ones close the socket with 1009. */
    @Inject
    @ConfigProperty(name = "switchboard.ws.max-message-bytes", defaultValue = "65536")
    int maxMessageBytes;

    private OriginPolicy origins;

    @PostConstruct
    void load() {
        origins = OriginPolicy.parse(allowedOrigins.orElse(""));
    }

    public OriginPolicy origins() {
        return origins;
    }

    public int maxMessageBytes() {
        return Math.max(1024, maxMessageBytes);
    }
}
