package dev.switchboard.ws;

import dev.switchboard.core.clock.PeriodicTask;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.logging.Logger;
import javax.naming.InitialContext;
import javax.naming.NamingException;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The threads that write to WebSockets, and a watchdog over them. Writes are blocking and made
 * here, one connection at a time per thread, draining its queue; a healthy client costs
 * microseconds per frame. (Liberty's asynchronous sends occasionally never reported completion
 * under load, stalling the connection for good.) A client that stops reading blocks its writer, so
 * the pool grows a thread per connection being written to (up to {@value #MAX_WRITERS}): clients
 * that stop reading hold only their own threads, never everyone's. The watchdog closes any
 * connection whose write has not finished within the send timeout — on a closer thread of its own,
 * never behind the writers it is there to free — and the client resumes by seq.
 */
@ApplicationScoped
public class SocketSenders {

    private static final Logger LOG = Logger.getLogger(SocketSenders.class.getName());

    private static final int CORE_WRITERS = 8;
    private static final int MAX_WRITERS = 2048;
    private static final int BACKLOG_WRITERS = 8;

    @Inject
    @ConfigProperty(name = "switchboard.ws.send-timeout-ms", defaultValue = "30000")
    long sendTimeoutMs;

    private ThreadPoolExecutor writers;
    private ThreadPoolExecutor backlog;
    private ScheduledExecutorService watchdog;
    private ExecutorService closers;
    private final Set<RpcSocket> sockets = ConcurrentHashMap.newKeySet();

    @PostConstruct
    void start() {
        ManagedThreadFactory threads;
        try {
            threads = InitialContext.doLookup("java:comp/DefaultManagedThreadFactory");
        } catch (NamingException e) {
            throw new IllegalStateException("no default managed thread factory", e);
        }
        // An idle writer takes the task (the hand-over queue holds nothing); a new thread is started
        // only when every writer is busy — blocked on a client that stopped reading, as a rule —
        // up to the limit; idle writers die after 30 s. Beyond the limit, tasks wait for a backlog
        // writer while the watchdog frees the blocked ones.
        backlog = new ThreadPoolExecutor(BACKLOG_WRITERS, BACKLOG_WRITERS, 30, TimeUnit.SECONDS,
                new LinkedBlockingQueue<>(), threads);
        backlog.allowCoreThreadTimeOut(true);
        writers = new ThreadPoolExecutor(CORE_WRITERS, MAX_WRITERS, 30, TimeUnit.SECONDS, new SynchronousQueue<>(),
                threads, (task, full) -> backlog.execute(task));
        closers = Executors.newCachedThreadPool(threads);
        watchdog = Executors.newSingleThreadScheduledExecutor(threads);
        watchdog.scheduleWithFixedDelay(PeriodicTask.guarded(LOG, "WebSocket send watchdog", this::checkStalled),
                1, 1, TimeUnit.SECONDS);
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
            if (socket.writeStalledSince(now, sendTimeoutMs) && socket.markStalledClose()) {
                closers.execute(socket::closeStalled);
            }
        }
    }

    @PreDestroy
    void stop() {
        watchdog.shutdownNow();
        closers.shutdownNow();
        writers.shutdownNow();
        backlog.shutdownNow();
    }
}
