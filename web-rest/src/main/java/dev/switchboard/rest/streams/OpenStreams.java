package dev.switchboard.rest.streams;

import dev.switchboard.core.input.ServerBusy;
import dev.switchboard.core.notify.NotifySettings;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.ws.rs.core.Response;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Every long-lived HTTP stream of this instance ({@code /rpc/stream}'s NDJSON, the chat and
 * responses server-sent events): open ones hold no thread. A stream's request is suspended (the
 * resource takes an {@code AsyncResponse}); from then on its {@link StreamFeed} is woken by what it
 * follows and its frames are written with the servlet's non-blocking output — by two writer threads
 * of this class, or by the container's when a slow client's socket drains — so a stream that waits,
 * or a client that reads slowly, costs memory, not a thread. A keep-alive frame goes out after
 * {@code SWITCHBOARD_NOTIFY_KEEPALIVE_MS} of quiet, which is also how a vanished client is noticed.
 * At most {@code SWITCHBOARD_STREAMS_MAX} are open at once; one more is refused at once with 503
 * {@code server_busy}.
 */
@ApplicationScoped
public class OpenStreams {

    /** Threads that write frames; writes never block, so a few serve every stream. */
    static final int WRITERS = 2;

    @Inject
    @ConfigProperty(name = "switchboard.streams.max", defaultValue = "10000")
    int max;

    @Inject
    NotifySettings notifySettings;

    @Resource
    ManagedThreadFactory threadFactory;

    private final Set<OpenStream> open = ConcurrentHashMap.newKeySet();
    private final AtomicInteger reserved = new AtomicInteger();
    private ThreadPoolExecutor writers;
    private ScheduledExecutorService keepAlives;

    @PostConstruct
    void start() {
        // A stream has at most one write pending (OpenStream.wake), so the queue never outgrows the streams.
        writers = new ThreadPoolExecutor(WRITERS, WRITERS, 0, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>(max + 1),
                threadFactory);
        keepAlives = Executors.newSingleThreadScheduledExecutor(threadFactory);
        long every = Math.max(1, notifySettings.keepAliveMs());
        keepAlives.scheduleWithFixedDelay(this::keepAlive, every, Math.max(1, every / 4), TimeUnit.MILLISECONDS);
    }

    @PreDestroy
    void stop() {
        keepAlives.shutdownNow();
        for (OpenStream stream : open) {
            stream.end();
        }
        writers.shutdownNow();
    }

    /**
     * Answers the suspended request with status 200, {@code contentType} and the frames of
     * {@code feed} until it ends or the client goes away.
     *
     * @throws ServerBusy when {@link #max} streams are open (503 {@code server_busy}); the feed was not started
     */
    public void open(HttpServletRequest request, HttpServletResponse response, String contentType, StreamFeed feed) {
        if (reserved.incrementAndGet() > max) {
            reserved.decrementAndGet();
            throw new ServerBusy("this instance has " + max + " streams open; retry shortly", 1);
        }
        AsyncContext context = request.getAsyncContext();
        context.setTimeout(0); // a stream lasts as long as it has something to follow
        response.setStatus(200);
        response.setContentType(contentType);
        response.setHeader("Cache-Control", "no-cache");
        response.setHeader("X-Accel-Buffering", "no"); // proxies pass frames on as they come
        OpenStream stream = new OpenStream(this, context, feed);
        open.add(stream);
        try {
            stream.start();
        } catch (RuntimeException e) { // nothing was sent: the request fails as any other
            stream.abandon();
            throw e;
        }
        try {
            // The head goes out now, alone: Liberty sends what is written before a response's first
            // flush only with the next one, and a first frame held back could wait for a keep-alive.
            response.flushBuffer();
        } catch (IOException gone) {
            stream.end();
            return;
        }
        stream.attach();
    }

    /**
     * Answers a suspended request once with {@code answer} — its status, headers and entity (a
     * string or bytes) — written by this class's writers with the servlet's non-blocking output the
     * moment it is ready, like a stream's frame. Resumed the JAX-RS way instead, a request's answer
     * is written by the container's pool, where during a burst it waits behind every request that
     * arrived before it: seconds after the run it waited for had ended (issue 49). A slow client
     * holds no thread; the answer is not counted among the open streams.
     *
     * @param context the request's asynchronous context, as {@link #suspended} took it
     */
    public void answer(AsyncContext context, Response answer) {
        HttpServletResponse response = (HttpServletResponse) context.getResponse();
        Object entity = answer.getEntity();
        byte[] body = entity == null ? new byte[0] : entity instanceof byte[] bytes ? bytes
                : entity.toString().getBytes(StandardCharsets.UTF_8);
        response.setStatus(answer.getStatus());
        answer.getStringHeaders().forEach((name, values) -> {
            if (!name.equalsIgnoreCase("Content-Type") && !name.equalsIgnoreCase("Content-Length")) {
                values.forEach(value -> response.addHeader(name, value));
            }
        });
        if (answer.getMediaType() != null) {
            response.setContentType(answer.getMediaType().toString());
        }
        response.setContentLength(body.length);
        OpenStream once = new OpenStream(this, context, StreamFeed.once(body));
        once.start();
        try {
            response.flushBuffer();
        } catch (IOException gone) {
            once.end();
            return;
        }
        once.attach();
        once.wake(); // the writers pump at once; the container's first onWritePossible may come later
    }

    /**
     * The asynchronous context of a request its resource suspended ({@code @Suspended}), taken on the
     * request's own thread, to be answered later by {@link #answer}: with no time limit of the
     * container's, as the wait it stands for has its own.
     */
    public AsyncContext suspended(HttpServletRequest request) {
        AsyncContext context = request.getAsyncContext();
        context.setTimeout(0);
        return context;
    }

    void write(Runnable pump) {
        writers.execute(pump);
    }

    void closed(OpenStream stream) {
        if (open.remove(stream)) {
            reserved.decrementAndGet();
        }
    }

    private void keepAlive() {
        long quietNanos = TimeUnit.MILLISECONDS.toNanos(notifySettings.keepAliveMs());
        long now = System.nanoTime();
        for (OpenStream stream : open) {
            stream.keepAliveIfQuiet(now, quietNanos);
        }
    }
}
