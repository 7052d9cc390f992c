package dev.switchboard.ws;

import dev.switchboard.core.user.Authentication;
import dev.switchboard.core.user.Authenticator;
import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.servlet.FilterChain;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.ServletException;
import jakarta.servlet.annotation.WebFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * Refuses a WebSocket handshake before the upgrade: 403 for a disallowed {@code Origin}, 401
 * without valid credentials ({@code Authorization: Bearer}, or {@code access_token} for browsers,
 * which cannot set headers on a WebSocket). The body is the REST API's error envelope.
 */
@WebFilter(urlPatterns = "/*")
public class SocketGate extends HttpFilter {

    private static final long serialVersionUID = 1L;

    static final String TOKEN_PARAMETER = "access_token";

    @Inject
    Authenticator authenticator;

    @Inject
    SocketSettings settings;

    @Override
    protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        if (!settings.origins().allows(request.getHeader("Origin"))) {
            refuse(response, 403, "forbidden_origin", "origin " + request.getHeader("Origin") + " is not allowed");
            return;
        }
        Authentication auth = authenticator.authenticateFrom(
                authorization(request.getHeader("Authorization"), request.getParameter(TOKEN_PARAMETER)),
                request.getRemoteAddr());
        if (auth.user().isEmpty()) {
            refuse(response, 401, "unauthorized", auth.refusalMessage());
            return;
        }
        chain.doFilter(request, response);
    }

    /** The Authorization value to check: the header, else the query token as a bearer credential. */
    static String authorization(String header, String queryToken) {
        if (header != null && !header.isBlank()) {
            return header;
        }
        return queryToken == null || queryToken.isBlank() ? null : "Bearer " + queryToken.strip();
    }

    private static void refuse(HttpServletResponse response, int status, String code, String message)
            throws IOException {
        response.setStatus(status);
        response.setContentType("application/json");
        response.getWriter().write(Json.createObjectBuilder().add("error", Json.createObjectBuilder()
                .add("code", code).add("message", message)).build().toString());
    }
}
