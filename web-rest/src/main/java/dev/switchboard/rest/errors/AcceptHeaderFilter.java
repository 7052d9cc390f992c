package dev.switchboard.rest.errors;

import jakarta.annotation.Priority;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.PreMatching;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.ext.Provider;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Refuses an {@code Accept} header the runtime could not parse ({@code 400 bad_request}) before
 * resource matching, where the runtime would fail with an internal exception of its own.
 */
@Provider
@PreMatching
@Priority(Priorities.AUTHENTICATION - 100)
public class AcceptHeaderFilter implements ContainerRequestFilter {

    @Override
    public void filter(ContainerRequestContext request) {
        ApiException refused = unparsable(request.getHeaders().getOrDefault(HttpHeaders.ACCEPT, java.util.List.of()));
        if (refused != null) {
            request.abortWith(ErrorBody.response(refused));
        }
    }

    /** The refusal of {@code Accept} values of which one does not parse ({@code 400}); null when all do. */
    public static ApiException unparsable(java.util.List<String> accepts) {
        for (String accept : accepts) {
            if (!parses(accept)) {
                ContainerErrors.Answer answer = ContainerErrors.forStatus(400);
                return new ApiException(answer.status(), answer.code(), "Accept is not a list of media types");
            }
        }
        return null;
    }

    private static final String TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
    /** RFC 9110 §12.5.1: a media range and its parameters ({@code q} a weight from 0 to 1). */
    private static final Pattern RANGE = Pattern.compile("\\s*" + TOKEN + "/" + TOKEN
            + "(\\s*;\\s*" + TOKEN + "=(" + TOKEN + "|\"([^\"\\\\]|\\\\.)*\"))*\\s*");
    private static final Pattern WEIGHT = Pattern.compile("(?i).*;\\s*q=([^;]*)");
    private static final Pattern VALID_WEIGHT = Pattern.compile("\\s*(0(\\.\\d{0,3})?|1(\\.0{0,3})?)\\s*");

    /** Each comma-separated range is a media range whose {@code q}, if any, is a weight from 0 to 1. */
    public static boolean parses(String accept) {
        for (String range : accept.split(",")) {
            if (range.isBlank()) {
                continue;
            }
            if (!RANGE.matcher(range).matches()) {
                return false;
            }
            Matcher weight = WEIGHT.matcher(range);
            if (weight.matches() && !VALID_WEIGHT.matcher(weight.group(1)).matches()) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether a parsed {@code Accept} allows {@code application/json}: a range {@code *}/{@code *},
     * {@code application/*} or {@code application/json} with a weight above 0.
     */
    public static boolean allowsJson(String accept) {
        for (String range : accept.split(",")) {
            if (range.isBlank()) {
                continue;
            }
            String[] parts = range.split(";");
            String type = parts[0].strip().toLowerCase(java.util.Locale.ROOT);
            Matcher weight = WEIGHT.matcher(range);
            boolean excluded = weight.matches() && Double.parseDouble(weight.group(1).strip()) == 0;
            if (!excluded && (type.equals("*/*") || type.equals("application/*") || type.equals("application/json"))) {
                return true;
            }
        }
        return false;
    }
}
