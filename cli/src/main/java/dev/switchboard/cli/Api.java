package dev.switchboard.cli;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonStructure;
import jakarta.json.JsonValue;
import jakarta.json.stream.JsonParsingException;
import java.io.IOException;
import java.io.StringReader;
import java.net.ConnectException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.StringJoiner;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The server's HTTP API as the commands use it: every call answers parsed JSON or throws a
 * {@link CliException} carrying the server's own message ({@code error.message} of the REST
 * envelope or of a JSON-RPC error), else jagc's {@code request failed with status <n>}.
 */
final class Api {

    /** A request waits at most this long for its answer beyond any long-poll it asked for. */
    private static final Duration ANSWER_TIMEOUT = Duration.ofSeconds(30);

    private final URI base;
    private final String token;
    private final HttpClient http;
    private final AtomicLong rpcIds = new AtomicLong();

    Api(URI base, String token) {
        this.base = base;
        this.token = token == null || token.isBlank() ? null : token.strip();
        // HTTP/1.1: the server's listener also offers h2c, and the upgrade is not worth a round trip.
        this.http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(10)).build();
    }

    URI base() {
        return base;
    }

    /** The answer, whatever its status; throws only when the server cannot be reached. */
    Reply call(String method, String path, String body, Map<String, String> headers, Duration wait) {
        HttpRequest.Builder request = HttpRequest.newBuilder(base.resolve(path)).timeout(ANSWER_TIMEOUT.plus(wait))
                .header("Accept", "application/json")
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
        if (body != null) {
            request.header("Content-Type", "application/json");
        }
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        headers.forEach(request::header);
        try {
            HttpResponse<String> answer = http.send(request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
            return new Reply(answer.statusCode(), answer.body());
        } catch (HttpTimeoutException e) {
            throw new CliException("no answer from " + base + " within " + ANSWER_TIMEOUT.plus(wait).toSeconds() + " s");
        } catch (ConnectException e) {
            throw new CliException("cannot reach " + base + ": connection refused");
        } catch (IOException e) {
            throw new CliException("cannot reach " + base + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CliException("interrupted");
        }
    }

    /** GET, expecting 2xx with a JSON object. */
    JsonObject get(String path) {
        return call("GET", path, null, Map.of(), Duration.ZERO).object();
    }

    /** GET of a long poll that may hold the answer for {@code wait}. */
    JsonObject get(String path, Duration wait) {
        return call("GET", path, null, Map.of(), wait).object();
    }

    JsonObject post(String path, JsonObject body) {
        return call("POST", path, body.toString(), Map.of(), Duration.ZERO).object();
    }

    JsonObject put(String path, JsonObject body) {
        return call("PUT", path, body.toString(), Map.of(), Duration.ZERO).object();
    }

    JsonObject patch(String path, JsonObject body) {
        return call("PATCH", path, body.toString(), Map.of(), Duration.ZERO).object();
    }

    /** DELETE, expecting 2xx; its answer is usually an empty {@code 204}, so there is nothing to parse. */
    void delete(String path) {
        Reply reply = call("DELETE", path, null, Map.of(), Duration.ZERO);
        if (!reply.ok()) {
            throw new CliException(reply.errorMessage());
        }
    }

    /** DELETE whose answer is a JSON object (expecting 2xx). */
    JsonObject deleteJson(String path) {
        return call("DELETE", path, null, Map.of(), Duration.ZERO).object();
    }

    /** A JSON-RPC call on {@code POST /rpc}: its {@code result}, or its error's message thrown. */
    JsonObject rpc(String method, JsonObject params) {
        JsonObject request = Json.createObjectBuilder().add("jsonrpc", "2.0").add("id", rpcIds.incrementAndGet())
                .add("method", method).add("params", params).build();
        JsonObject answer = call("POST", "/rpc", request.toString(), Map.of(), Duration.ZERO).object();
        return rpcResult(answer);
    }

    static JsonObject rpcResult(JsonObject answer) {
        JsonValue error = answer.get("error");
        if (error instanceof JsonObject e) {
            String message = e.getString("message", "request failed");
            if (e.get("data") instanceof JsonObject data && data.get("reason") instanceof JsonString reason
                    && !reason.getString().equals(message)) {
                String field = data.getString("field", "");
                message += " (" + (field.isEmpty() ? "" : field + ": ") + reason.getString() + ")";
            }
            throw new CliException(message);
        }
        if (answer.get("result") instanceof JsonObject result) {
            return result;
        }
        throw new CliException("unexpected answer: " + answer);
    }

    /** A path segment or query value, escaped. */
    /** {@code ?name=value&…} of the parameters that have a value, escaped; empty when none has. */
    static String query(Map<String, String> parameters) {
        StringJoiner joined = new StringJoiner("&", "?", "").setEmptyValue("");
        parameters.forEach((name, value) -> {
            if (value != null) {
                joined.add(name + "=" + escape(value));
            }
        });
        return joined.toString();
    }

    static String escape(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
    }

    static JsonStructure parse(String text) {
        try (var reader = Json.createReader(new StringReader(text))) {
            return reader.read();
        }
    }

    /** An HTTP answer. */
    record Reply(int status, String body) {

        boolean ok() {
            return status >= 200 && status < 300;
        }

        /** The body as a JSON object when the status is 2xx; the server's error otherwise. */
        JsonObject object() {
            if (!ok()) {
                throw new CliException(errorMessage());
            }
            try {
                if (parse(body) instanceof JsonObject object) {
                    return object;
                }
            } catch (JsonParsingException | IllegalStateException e) {
                // answered below
            }
            throw new CliException("unexpected answer (status " + status + "): not a JSON object");
        }

        /** jagc's rule: {@code error.message} from the JSON body, else the status. */
        String errorMessage() {
            try {
                if (parse(body) instanceof JsonObject object) {
                    JsonValue error = object.get("error");
                    if (error instanceof JsonObject e && e.get("message") instanceof JsonString message) {
                        return message.getString();
                    }
                    if (object.get("error_message") instanceof JsonString message) {
                        return message.getString();
                    }
                }
            } catch (RuntimeException notJson) {
                // the status is all there is to say
            }
            return status > 0 ? "request failed with status " + status : "request failed";
        }
    }
}
