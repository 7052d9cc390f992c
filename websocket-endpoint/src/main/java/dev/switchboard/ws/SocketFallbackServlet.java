package dev.switchboard.ws;

import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * The {@code /ws} module's default servlet. Without it the container's own file servlet answers
 * what no endpoint takes, and it refuses TRACE with a text page before {@link SocketGate} can
 * answer; with it every request that is not a handshake for the endpoint gets the JSON envelope.
 */
@WebServlet(urlPatterns = "/")
public class SocketFallbackServlet extends HttpServlet {

    private static final long serialVersionUID = 1L;

    @Override
    protected void service(HttpServletRequest request, HttpServletResponse response) throws IOException {
        SocketGate.refuse(response, 404, "route_not_found", "route not found");
    }

    /** Declared so that the container sees TRACE handled here and lets the request reach {@link SocketGate}. */
    @Override
    protected void doTrace(HttpServletRequest request, HttpServletResponse response) throws IOException {
        service(request, response);
    }
}
