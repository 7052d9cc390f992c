package dev.switchboard.core.engine.tool;

import dev.switchboard.core.json.Jsons;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;

/**
 * {@code http_get}: fetches a URL that starts with one of the allowed prefixes (scheme, host, port
 * and path compared; a prefix ends at a path boundary, so {@code https://a.example} does not allow
 * {@code https://a.example.evil}), without following redirects, and answers {@code HTTP <status>}
 * then at most {@link #MAX_BODY_BYTES} bytes of the body. Anything else is refused before a
 * connection is made.
 */
public final class HttpGetTool implements FunctionTool {

    static final int MAX_BODY_BYTES = 16 * 1024;

    private final List<String> allowed;
    private final HttpClient client;
    private final Duration timeout;

    /** @param allowedPrefixes absolute http(s) URLs; a request must start with one of them */
    public HttpGetTool(List<String> allowedPrefixes, HttpClient client, Duration timeout) {
        this.allowed = allowedPrefixes.stream().map(p -> {
            String normal = normal(p);
            if (normal == null) {
                throw new IllegalArgumentException("http_get: '" + p + "' is not an absolute http(s) URL");
            }
            return normal;
        }).toList();
        this.client = client;
        this.timeout = timeout;
    }

    @Override
    public String name() {
        return "http_get";
    }

    @Override
    public String description() {
        return "Fetches a web page or API response by URL (only URLs the operator allowed) and returns its"
                + " status and the start of its body.";
    }

    @Override
    public JsonObject parameters() {
        return Jsons.createObjectBuilder().add("type", "object")
                .add("properties", Jsons.createObjectBuilder().add("url", Jsons.createObjectBuilder()
                        .add("type", "string").add("description", "The absolute http or https URL to fetch.")))
                .add("required", Jsons.createArrayBuilder().add("url"))
                .add("additionalProperties", false)
                .build();
    }

    @Override
    public CompletionStage<String> call(JsonObject arguments) {
        return call(arguments, null);
    }

    /** {@code credential}: sent as {@code Authorization: Bearer …} (a tool configured to need the user's token). */
    @Override
    public CompletionStage<String> call(JsonObject arguments, String credential) {
        String url = arguments.get("url") instanceof JsonString s ? s.getString() : "";
        if (!allows(url)) {
            return CompletableFuture.failedFuture(new IllegalArgumentException("url not allowed: " + url));
        }
        HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(url)).timeout(timeout).GET();
        if (credential != null) {
            builder.header("Authorization", "Bearer " + credential);
        }
        HttpRequest request = builder.build();
        CompletableFuture<String> result = new CompletableFuture<>();
        client.sendAsync(request, info -> HttpResponse.BodySubscribers.fromSubscriber(new Capped(info.statusCode(), result)))
                .whenComplete((response, error) -> {
                    if (error != null) {
                        result.completeExceptionally(new IllegalStateException("fetching " + url + " failed: "
                                + error.getClass().getSimpleName()));
                    }
                });
        return result;
    }

    /** Whether {@code url} lies under an allowed prefix. */
    boolean allows(String url) {
        String normal = normal(url);
        if (normal == null) {
            return false;
        }
        for (String prefix : allowed) {
            if (normal.equals(prefix) || normal.startsWith(prefix) && (prefix.endsWith("/")
                    || "/?#".indexOf(normal.charAt(prefix.length())) >= 0)) {
                return true;
            }
        }
        return false;
    }

    /** scheme://host[:port]/path?query in a comparable form, or null when not an absolute http(s) URL without user info. */
    private static String normal(String url) {
        try {
            URI uri = new URI(url.strip()).normalize();
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            if (!scheme.equals("http") && !scheme.equals("https") || uri.getHost() == null || uri.getRawUserInfo() != null) {
                return null;
            }
            String path = uri.getRawPath() == null ? "" : uri.getRawPath();
            if (path.contains("/../") || path.endsWith("/..")) {
                return null;
            }
            return scheme + "://" + uri.getHost().toLowerCase(Locale.ROOT) + (uri.getPort() < 0 ? "" : ":" + uri.getPort())
                    + path + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
        } catch (URISyntaxException e) {
            return null;
        }
    }

    /** Collects at most {@link #MAX_BODY_BYTES}, then stops reading. */
    private static final class Capped implements Flow.Subscriber<List<ByteBuffer>> {
        private final int status;
        private final CompletableFuture<String> result;
        private final byte[] body = new byte[MAX_BODY_BYTES];
        private int length;
        private Flow.Subscription subscription;

        Capped(int status, CompletableFuture<String> result) {
            this.status = status;
            this.result = result;
        }

        @Override
        public void onSubscribe(Flow.Subscription subscription) {
            this.subscription = subscription;
            subscription.request(Long.MAX_VALUE);
        }

        @Override
        public void onNext(List<ByteBuffer> buffers) {
            for (ByteBuffer buffer : buffers) {
                int n = Math.min(buffer.remaining(), MAX_BODY_BYTES - length);
                buffer.get(body, length, n);
                length += n;
            }
            if (length == MAX_BODY_BYTES) {
                subscription.cancel();
                onComplete();
            }
        }

        @Override
        public void onError(Throwable error) {
            result.completeExceptionally(new IllegalStateException("reading the body failed: "
                    + error.getClass().getSimpleName()));
        }

        @Override
        public void onComplete() {
            result.complete("HTTP " + status + "\n" + new String(body, 0, length, StandardCharsets.UTF_8));
        }
    }
}
