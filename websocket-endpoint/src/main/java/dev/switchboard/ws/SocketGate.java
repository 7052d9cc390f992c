package dev.switchboard.ws;

import dev.switchboard.core.json.ErrorEnvelope;
import dev.switchboard.core.user.Authentication;
import dev.switchboard.core.user.Authenticator;
import jakarta.inject.Inject;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.annotation.WebFilter;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * Refuses a WebSocket handshake before the upgrade: 405 for any method but GET, 400 for a request
 * that is not a handshake, 403 for a disallowed {@code Origin}, 401
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
        if (!"GET".equals(request.getMethod())) { // a handshake is a GET; nothing else is served here
            response.setHeader("Allow", "GET");
            refuse(response, 405, "method_not_allowed", "method not allowed");
            return;
        }
        if (!settings.origins().allows(request.getHeader("Origin"))) {
            refuse(response, 403, "forbidden_origin", "this origin is not allowed");
            return;
        }
        String queryToken;
        try {
            queryToken = request.getParameter(TOKEN_PARAMETER);
        } catch (RuntimeException e) { // a query string that is not valid percent-encoding
            refuse(response, 400, "bad_request", "the query string is not valid percent-encoded UTF-8");
            return;
        }
        Authentication auth = authenticator.authenticateFrom(authorization(request.getHeader("Authorization"), queryToken),
                request.getRemoteAddr());
        if (auth.user().isEmpty()) {
            refuse(response, 401, "unauthorized", auth.refusalMessage());
            return;
        }
        if (!isHandshake(request)) {
            refuse(response, 400, "bad_request",
                    "expected a WebSocket handshake (Upgrade: websocket, Sec-WebSocket-Key, Sec-WebSocket-Version: 13)");
            return;
        }
        chain.doFilter(request, response);
    }

    /** RFC 6455 §4.1's request headers; without them the container would answer a bare 400 of its own. */
    static boolean isHandshake(HttpServletRequest request) {
        String upgrade = request.getHeader("Upgrade");
        String key = request.getHeader("Sec-WebSocket-Key");
        return upgrade != null && upgrade.strip().equalsIgnoreCase("websocket") && key != null && !key.isBlank()
                && "13".equals(request.getHeader("Sec-WebSocket-Version"));
    }

    /** The Authorization value to check: the header, else the query token as a bearer credential. */
    static String authorization(String header, String queryToken) {
        if (header != null && !header.isBlank()) {
            return header;
        }
        return queryToken == null || queryToken.isBlank() ? null : "Bearer " + queryToken.strip();
    }

    /** Answers with the API's JSON error envelope. */
    static void refuse(HttpServletResponse response, int status, String code, String message)
            throws IOException {
        response.setStatus(status);
        response.setContentType("application/json");
        response.setCharacterEncoding("UTF-8");
        response.getWriter().write(ErrorEnvelope.of(code, message).toString());
    }
}
