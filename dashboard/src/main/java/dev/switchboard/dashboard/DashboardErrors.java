package dev.switchboard.dashboard;

import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * The dashboard's error page (web.xml maps every status and exception here): what the container
 * refuses on its own — a path it will not decode, say — in the API's error envelope.
 */
@WebServlet(urlPatterns = DashboardErrors.PATH)
public class DashboardErrors extends HttpServlet {

    private static final long serialVersionUID = 1L;

    static final String PATH = "/_error";

    @Override
    protected void service(HttpServletRequest request, HttpServletResponse response) throws IOException {
        Object status = request.getAttribute(RequestDispatcher.ERROR_STATUS_CODE);
        // The container refuses TRACE (it would echo the request's headers) with 403: a method not allowed.
        if ("TRACE".equals(request.getMethod())) {
            response.setHeader("Allow", "GET, HEAD");
            DashboardFiles.refuse(response, 405);
            return;
        }
        DashboardFiles.refuse(response, status instanceof Integer i ? i : 404);
    }

    /**
     * Declared so that the container sees TRACE handled here: with the inherited one it refuses the
     * request itself, with a text page, before this servlet can answer.
     */
    @Override
    protected void doTrace(HttpServletRequest request, HttpServletResponse response) throws IOException {
        service(request, response);
    }
}
