package dev.switchboard.rest.responses;

import dev.switchboard.core.user.Authenticator;
import jakarta.enterprise.inject.spi.CDI;
import jakarta.websocket.HandshakeResponse;
import jakarta.websocket.server.HandshakeRequest;
import jakarta.websocket.server.ServerEndpointConfig;
import java.util.List;

/**
 * Hands the connection's user to {@link ResponsesSocket} through its per-connection user
 * properties. {@link ResponsesSocketGate} has already refused handshakes without valid credentials
 * and applied the loopback rule (the handshake request does not show the peer address).
 */
public class ResponsesSocketConfigurator extends ServerEndpointConfig.Configurator {

    static final String USER = "switchboard.user";

    @Override
    public void modifyHandshake(ServerEndpointConfig config, HandshakeRequest request, HandshakeResponse response) {
        List<String> header = request.getHeaders().get("Authorization");
        if (header == null) {
            header = request.getHeaders().get("authorization");
        }
        CDI.current().select(Authenticator.class).get()
                .authenticate(header == null || header.isEmpty() ? null : header.get(0), true).user()
                .ifPresent(user -> config.getUserProperties().put(USER, user));
    }
}
