package dev.switchboard.rest.responses;

import dev.switchboard.core.user.Authentication;
import dev.switchboard.core.user.Authenticator;
import dev.switchboard.rest.errors.ErrorBody;
import jakarta.inject.Inject;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.annotation.WebFilter;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * Authenticates a WebSocket handshake on {@code /v1/responses} (or {@code /responses}) before the upgrade, as the REST
 * API authenticates its requests ({@code Authorization: Bearer}; loopback callers when no tokens
 * are configured): without valid credentials the answer is the API's 401.
 * Every other request to the resource passes untouched to JAX-RS.
 */
@WebFilter(urlPatterns = {"/v1/responses", "/responses"}, asyncSupported = true) // a request it passes on may be suspended
public class ResponsesSocketGate extends HttpFilter {

    private static final long serialVersionUID = 1L;

    @Inject
    Authenticator authenticator;

    @Override
    protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        String upgrade = request.getHeader("Upgrade");
        if (upgrade != null && upgrade.strip().equalsIgnoreCase("websocket")) {
            Authentication auth = authenticator.authenticateFrom(request.getHeader("Authorization"), request.getRemoteAddr());
            if (auth.user().isEmpty()) {
                response.setStatus(401);
                response.setContentType("application/json");
                response.getOutputStream().write(ErrorBody.json("unauthorized", auth.refusalMessage())
                        .getBytes(StandardCharsets.UTF_8));
                return;
            }
        }
        chain.doFilter(request, response);
    }
}
