package dev.switchboard.rest.liberty;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Fetches what one of Liberty's own endpoints answers on the loopback-only port they listen on,
 * asynchronously: the request that asked holds no thread while Liberty — on its own pool —
 * answers. A few relays at a time (a scrape per interval); one more is refused at once.
 */
@ApplicationScoped
public class LibertyEndpoints {

    /** Relays at once; more are refused (503) rather than queued. */
    static final int MAX_IN_FLIGHT = 8;
    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    /** Liberty's loopback-only port for its own endpoints ({@code SWITCHBOARD_INTERNAL_PORT}; server.xml's default). */
    @Inject
    @ConfigProperty(name = "switchboard.internal.port", defaultValue = "19080")
    int internalPort;

    @Resource
    ManagedThreadFactory threadFactory;

    private final Semaphore inFlight = new Semaphore(MAX_IN_FLIGHT);
    private ExecutorService executor;
    private HttpClient client;

    /** What Liberty answered: its status, its body and the body's type. */
    public record Answer(int status, String contentType, byte[] body) {
    }

    @PostConstruct
    void start() {
        // The client's own work (its selector hands completed exchanges here): two threads, a bounded queue.
        executor = new ThreadPoolExecutor(2, 2, 0, TimeUnit.MILLISECONDS, new ArrayBlockingQueue<>(MAX_IN_FLIGHT * 4),
                threadFactory);
        client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(TIMEOUT)
                .followRedirects(HttpClient.Redirect.NEVER).executor(executor).build();
    }

    @PreDestroy
    void stop() {
        executor.shutdownNow();
    }

    /**
     * Liberty's answer to {@code GET pathAndQuery} (from the root, already encoded) with
     * {@code accept}; empty when as many relays as it takes are under way.
     */
    public Optional<CompletableFuture<Answer>> get(String pathAndQuery, String accept) {
        if (!inFlight.tryAcquire()) {
            return Optional.empty();
        }
        CompletableFuture<Answer> answer;
        try {
            HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + internalPort + pathAndQuery))
                    .timeout(TIMEOUT).header("Accept", accept == null || accept.isBlank() ? "*/*" : accept).GET().build();
            answer = client.sendAsync(request, HttpResponse.BodyHandlers.ofByteArray()).thenApply(r -> new Answer(
                    r.statusCode(), r.headers().firstValue("Content-Type").orElse(null), r.body()));
        } catch (RuntimeException e) {
            inFlight.release();
            throw e;
        }
        answer.whenComplete((r, e) -> inFlight.release());
        return Optional.of(answer);
    }
}
