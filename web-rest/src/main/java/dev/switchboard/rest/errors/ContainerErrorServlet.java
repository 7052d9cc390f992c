package dev.switchboard.rest.errors;

import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The error page of the web container (web.xml maps every error status and exception here): what
 * the container itself refuses — a path it will not decode, {@code /WEB-INF/...}, a method it
 * does not allow — is answered in the same JSON envelope as the API's own errors, instead of
 * Liberty's HTML page with its message ids and stack frames.
 */
@WebServlet(urlPatterns = ContainerErrorServlet.PATH)
public class ContainerErrorServlet extends HttpServlet {

    private static final long serialVersionUID = 1L;
    private static final Logger LOG = Logger.getLogger(ContainerErrorServlet.class.getName());

    static final String PATH = "/_error";

    @Inject
    transient Instance<ErrorBodies> doors;

    @Override
    protected void service(HttpServletRequest request, HttpServletResponse response) throws IOException {
        Object status = request.getAttribute(RequestDispatcher.ERROR_STATUS_CODE);
        Object thrown = request.getAttribute(RequestDispatcher.ERROR_EXCEPTION);
        int code = status instanceof Integer i ? i : 404; // requested directly: there is no such route
        if (code >= 500 && thrown instanceof Throwable t) {
            LOG.log(Level.WARNING, "The web container failed a request", t);
        }
        // The container refuses TRACE (it would echo the request's headers) with 403: it is a method not allowed.
        ContainerErrors.Answer answer = ContainerErrors.forStatus("TRACE".equals(request.getMethod()) ? 405 : code);
        String body = bodyFor(request, answer);
        response.resetBuffer();
        response.setStatus(answer.status());
        response.setContentType("application/json");
        response.setCharacterEncoding("UTF-8");
        if (answer.status() == 405) {
            response.setHeader("Allow", "GET, POST");
        }
        response.getWriter().write(body);
    }

    /** The envelope, or the body of the door the failed request was for ({@link ErrorBodies}). */
    private String bodyFor(HttpServletRequest request, ContainerErrors.Answer answer) {
        Object uri = request.getAttribute(RequestDispatcher.ERROR_REQUEST_URI);
        String path = uri == null ? "" : uri.toString().substring(Math.min(uri.toString().length(),
                request.getContextPath().length())).replaceFirst("^/", "");
        for (ErrorBodies door : doors) {
            if (door.covers(path)) {
                return door.body(answer.status(), answer.code(), answer.message());
            }
        }
        return ErrorBody.json(answer.code(), answer.message());
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
