package dev.switchboard.dashboard;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.annotation.WebFilter;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * The dashboard's pages load only their own script and style and talk only to this server: it
 * shows what models and people wrote (thread texts, tool arguments), and a policy that allows no
 * inline or foreign script keeps such text from ever running as code. No other site may frame it.
 */
@WebFilter("/*")
public class SecurityHeaders implements Filter {

    /** {@code 'self'} covers the page's own WebSocket ({@code ws:}/{@code wss:} to the same host). */
    static final String POLICY = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
            + "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        HttpServletResponse http = (HttpServletResponse) response;
        http.setHeader("Content-Security-Policy", POLICY);
        http.setHeader("X-Content-Type-Options", "nosniff");
        http.setHeader("Referrer-Policy", "no-referrer");
        chain.doFilter(request, response);
    }
}
