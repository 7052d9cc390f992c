package dev.switchboard.ws;

import dev.switchboard.core.json.Jsons;
import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The error page of the {@code /ws} module (web.xml maps every error here): a handshake the
 * container refuses on its own is answered in the API's JSON error envelope, never with the
 * container's HTML page, its message ids or class names.
 */
@WebServlet(urlPatterns = SocketErrorServlet.PATH)
public class SocketErrorServlet extends HttpServlet {

    private static final long serialVersionUID = 1L;
    private static final Logger LOG = Logger.getLogger(SocketErrorServlet.class.getName());

    static final String PATH = "/_error";

    @Override
    protected void service(HttpServletRequest request, HttpServletResponse response) throws IOException {
        Object status = request.getAttribute(RequestDispatcher.ERROR_STATUS_CODE);
        int code = status instanceof Integer i ? i : 404;
        if (code >= 500 && request.getAttribute(RequestDispatcher.ERROR_EXCEPTION) instanceof Throwable t) {
            LOG.log(Level.WARNING, "The web container failed a WebSocket request", t);
        }
        response.resetBuffer();
        if (code >= 500) {
            SocketGate.refuse(response, 500, "internal_error", "request failed");
        } else if (code == 404 || code == 403) {
            SocketGate.refuse(response, 404, "route_not_found", "route not found");
        } else if (code == 405) {
            SocketGate.refuse(response, 405, "method_not_allowed", "method not allowed");
        } else {
            SocketGate.refuse(response, 400, "bad_request", "the WebSocket handshake could not be read");
        }
    }

    /**
     * Declared so that the container sees TRACE handled here: with the inherited one it refuses
     * the request itself, with a text page, before this servlet can answer.
     */
    @Override
    protected void doTrace(HttpServletRequest request, HttpServletResponse response) throws IOException {
        service(request, response);
    }
}
