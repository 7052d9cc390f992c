package dev.switchboard.ws;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import javax.naming.InitialContext;
import javax.naming.NamingException;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The threads that write to WebSockets, and a watchdog over them. Writes are blocking and made
 * here, one connection at a time per thread, draining its queue; a healthy client costs
 * microseconds per frame. (Liberty's asynchronous sends occasionally never reported completion
 * under load, stalling the connection for good.) A client that stops reading blocks its writer:
 * the watchdog closes any connection whose write has not finished within the send timeout, which
 * frees the thread, and the client resumes by seq.
 */
@ApplicationScoped
public class SocketSenders {

    private static final int MAX_WRITERS = 64;

    @Inject
    @ConfigProperty(name = "switchboard.ws.send-timeout-ms", defaultValue = "30000")
    long sendTimeoutMs;

    private ThreadPoolExecutor writers;
    private ScheduledExecutorService watchdog;
    private final Set<RpcSocket> sockets = ConcurrentHashMap.newKeySet();

    @PostConstruct
    void start() {
        ManagedThreadFactory threads;
        try {
            threads = InitialContext.doLookup("java:comp/DefaultManagedThreadFactory");
        } catch (NamingException e) {
            throw new IllegalStateException("no default managed thread factory", e);
        }
        writers = new ThreadPoolExecutor(MAX_WRITERS, MAX_WRITERS, 30, TimeUnit.SECONDS, new LinkedBlockingQueue<>(),
                threads);
        writers.allowCoreThreadTimeOut(true);
        watchdog = Executors.newSingleThreadScheduledExecutor(threads);
        watchdog.scheduleWithFixedDelay(this::checkStalled, 1, 1, TimeUnit.SECONDS);
    }

    void execute(Runnable task) {
        writers.execute(task);
    }

    void register(RpcSocket socket) {
        sockets.add(socket);
    }

    void unregister(RpcSocket socket) {
        sockets.remove(socket);
    }

    private void checkStalled() {
        long now = System.currentTimeMillis();
        for (RpcSocket socket : sockets) {
            if (socket.writeStalledSince(now, sendTimeoutMs)) {
                writers.execute(socket::closeStalled);
            }
        }
    }

    @PreDestroy
    void stop() {
        watchdog.shutdownNow();
        writers.shutdownNow();
    }
}
