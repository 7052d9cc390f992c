package dev.switchboard.rest.responses;

import jakarta.websocket.Endpoint;
import jakarta.websocket.server.ServerApplicationConfig;
import jakarta.websocket.server.ServerEndpointConfig;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Registers {@link ResponsesSocket} at {@code /v1/responses} and at {@code /responses}, like every
 * other route of the resource, so a client's base URL may end before {@code /v1} (an annotated
 * endpoint has one path only). Annotated endpoints of this module, if any, are kept as scanned.
 */
public class ResponsesSocketPaths implements ServerApplicationConfig {

    static final Set<String> PATHS = Set.of("/v1/responses", "/responses");

    @Override
    public Set<ServerEndpointConfig> getEndpointConfigs(Set<Class<? extends Endpoint>> scanned) {
        return PATHS.stream().map(path -> ServerEndpointConfig.Builder.create(ResponsesSocket.class, path)
                .configurator(new ResponsesSocketConfigurator()).build()).collect(Collectors.toSet());
    }

    @Override
    public Set<Class<?>> getAnnotatedEndpointClasses(Set<Class<?>> scanned) {
        return scanned;
    }
}
