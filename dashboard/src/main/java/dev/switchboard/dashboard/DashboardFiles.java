package dev.switchboard.dashboard;

import dev.switchboard.core.json.StatusAnswers;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.net.URLConnection;
import java.nio.charset.StandardCharsets;

/**
 * The dashboard's files — its page, script, style and the charts' WebJar — served by this module's
 * default servlet rather than the container's, so that every answer is the module's own: a file
 * that is not there, and any method but {@code GET} and {@code HEAD} (TRACE included, which the
 * container's file servlet refuses with a text page of its own), get the API's error envelope
 * ({@link StatusAnswers}). The pages load only their own script and style and talk only to this
 * server: they show what models and people wrote (thread texts, tool arguments), and a policy that
 * allows no inline or foreign script keeps such text from ever running as code; no other site may
 * frame them. Each file is revalidated by its modification time ({@code no-cache}): a new release
 * shows at once.
 */
@WebServlet(urlPatterns = "/")
public class DashboardFiles extends HttpServlet {

    private static final long serialVersionUID = 1L;

    /** {@code 'self'} covers the page's own WebSocket ({@code ws:}/{@code wss:} to the same host). */
    static final String POLICY = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
            + "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

    @Override
    protected void service(HttpServletRequest request, HttpServletResponse response) throws IOException {
        response.setHeader("Content-Security-Policy", POLICY);
        response.setHeader("X-Content-Type-Options", "nosniff");
        response.setHeader("Referrer-Policy", "no-referrer");
        String method = request.getMethod();
        if (!method.equals("GET") && !method.equals("HEAD")) {
            response.setHeader("Allow", "GET, HEAD");
            refuse(response, 405);
            return;
        }
        String path = request.getServletPath() + (request.getPathInfo() == null ? "" : request.getPathInfo());
        if (request.getRequestURI().equals(request.getContextPath())) { // its root without the slash: the page names its files relative to the folder
            response.setStatus(HttpServletResponse.SC_MOVED_PERMANENTLY);
            response.setHeader("Location", request.getContextPath() + "/");
            return;
        }
        if (path.equals("/")) {
            path = "/index.html";
        }
        URL file = path.endsWith("/") || path.startsWith("/WEB-INF") || path.startsWith("/META-INF") ? null
                : getServletContext().getResource(path);
        if (file == null) {
            refuse(response, 404);
            return;
        }
        URLConnection connection = file.openConnection();
        long modified = connection.getLastModified() / 1000 * 1000; // HTTP dates have whole seconds
        long since = request.getDateHeader("If-Modified-Since");
        if (modified > 0 && since >= modified) {
            response.setStatus(HttpServletResponse.SC_NOT_MODIFIED);
            return;
        }
        String type = getServletContext().getMimeType(path);
        response.setContentType(type == null ? "application/octet-stream" : type);
        if (type != null && (type.startsWith("text/") || type.contains("javascript"))) {
            response.setCharacterEncoding(StandardCharsets.UTF_8.name());
        }
        response.setHeader("Cache-Control", "no-cache");
        if (modified > 0) {
            response.setDateHeader("Last-Modified", modified);
        }
        long length = connection.getContentLengthLong();
        if (length >= 0) {
            response.setContentLengthLong(length);
        }
        try (InputStream in = connection.getInputStream()) {
            if (method.equals("GET")) {
                in.transferTo(response.getOutputStream());
            }
        }
    }

    /** Declared so that the container sees TRACE handled here: with the inherited one it refuses it itself, with a text page. */
    @Override
    protected void doTrace(HttpServletRequest request, HttpServletResponse response) throws IOException {
        service(request, response);
    }

    /** The envelope for {@code status}, as every web module answers it. */
    static void refuse(HttpServletResponse response, int status) throws IOException {
        StatusAnswers.Answer answer = StatusAnswers.forStatus(status);
        byte[] body = answer.body().getBytes(StandardCharsets.UTF_8);
        response.resetBuffer();
        response.setStatus(answer.status());
        response.setContentType("application/json");
        response.setContentLength(body.length);
        response.getOutputStream().write(body);
    }
}
