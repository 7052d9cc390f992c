package dev.switchboard.ws;

import dev.switchboard.core.user.Authenticator;
import jakarta.enterprise.inject.spi.CDI;
import jakarta.websocket.HandshakeResponse;
import jakarta.websocket.server.HandshakeRequest;
import jakarta.websocket.server.ServerEndpointConfig;
import java.util.List;

/**
 * Resolves the connection's user during the handshake and hands it to the endpoint through the
 * per-connection user properties (WebSocket 2.1). {@link SocketGate} has already refused
 * unauthenticated and cross-origin requests; the origin is checked again here in case the
 * container upgrades without running filters.
 */
public class SocketConfigurator extends ServerEndpointConfig.Configurator {

    static final String USER = "switchboard.user";

    @Override
    public boolean checkOrigin(String originHeaderValue) {
        return CDI.current().select(SocketSettings.class).get().origins().allows(originHeaderValue);
    }

    @Override
    public void modifyHandshake(ServerEndpointConfig config, HandshakeRequest request, HandshakeResponse response) {
        List<String> header = request.getHeaders().get("Authorization");
        if (header == null) {
            header = request.getHeaders().get("authorization");
        }
        List<String> token = request.getParameterMap().get(SocketGate.TOKEN_PARAMETER);
        String authorization = SocketGate.authorization(header == null || header.isEmpty() ? null : header.get(0),
                token == null || token.isEmpty() ? null : token.get(0));
        // The gate enforced the loopback rule (the handshake request does not show the peer address).
        CDI.current().select(Authenticator.class).get().authenticate(authorization, true).user()
                .ifPresent(user -> config.getUserProperties().put(USER, user));
    }
}
