package dev.switchboard.rest.responses;

import dev.switchboard.core.notify.NotificationHub;
import dev.switchboard.core.notify.NotifySettings;
import dev.switchboard.core.responses.ResponseService;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.ejb.EJB;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * What both transports of a response's events use — the SSE of {@link ResponsesResource} and
 * {@link ResponsesSocket}, which looks this bean up (Liberty does not inject into endpoints that
 * have their own configurator): the responses, the notifications their text streams from, the
 * limits, and the container's executors (a connection streams its responses on a managed thread,
 * so the container's WebSocket threads only queue requests).
 */
@ApplicationScoped
public class ResponseStreams {

    @Inject
    ResponseService responses;

    @EJB
    NotificationHub hub;

    @Inject
    NotifySettings notifySettings;

    @Inject
    ResponsesSettings settings;

    /** WebSocket responses in progress at once on this instance; a request beyond them is refused at once (503). */
    static final int SOCKET_RESPONSES = 64;

    @Resource
    ManagedThreadFactory threadFactory;

    /**
     * The WebSocket transport's own threads (a response in progress holds one until it ends), not
     * the server's shared pool: a socket's response must never wait for a thread that requests
     * are taking. Bounded, with no queue: the socket answers what does not fit with 503.
     */
    private ExecutorService executor;
    private ScheduledExecutorService scheduler;

    @PostConstruct
    void start() {
        executor = new ThreadPoolExecutor(0, SOCKET_RESPONSES, 30, TimeUnit.SECONDS, new SynchronousQueue<>(), threadFactory);
        scheduler = Executors.newSingleThreadScheduledExecutor(threadFactory);
    }

    @PreDestroy
    void stop() {
        executor.shutdownNow();
        scheduler.shutdownNow();
    }

    ResponseService responses() {
        return responses;
    }

    ResponsesSettings settings() {
        return settings;
    }

    ExecutorService executor() {
        return executor;
    }

    ScheduledExecutorService scheduler() {
        return scheduler;
    }

    /** The events of {@code created}, after {@code startingAfter} (-1: all), as server-sent events. */
    ResponseEvents events(ResponseService.Response created, long startingAfter) {
        return new ResponseEvents(responses, hub, notifySettings, created, settings.runTimeoutMs(), startingAfter, false);
    }

    /** The events of {@code created} over a WebSocket. */
    ResponseEvents socketEvents(ResponseService.Response created) {
        return new ResponseEvents(responses, hub, notifySettings, created, settings.runTimeoutMs(), -1, true);
    }
}
