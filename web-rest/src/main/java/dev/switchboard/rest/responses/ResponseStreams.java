package dev.switchboard.rest.responses;

import dev.switchboard.core.notify.NotificationHub;
import dev.switchboard.core.notify.NotifySettings;
import dev.switchboard.core.responses.ResponseService;
import jakarta.annotation.Resource;
import jakarta.ejb.EJB;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

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

    @Resource
    ManagedExecutorService executor;

    @Resource
    ManagedScheduledExecutorService scheduler;

    ResponseService responses() {
        return responses;
    }

    ResponsesSettings settings() {
        return settings;
    }

    ManagedExecutorService executor() {
        return executor;
    }

    ManagedScheduledExecutorService scheduler() {
        return scheduler;
    }

    /** The events of {@code created}, after {@code startingAfter} (-1: all). */
    ResponseEvents events(ResponseService.Response created, long startingAfter) {
        return new ResponseEvents(responses, hub, notifySettings, created, settings.runTimeoutMs(), startingAfter);
    }
}
