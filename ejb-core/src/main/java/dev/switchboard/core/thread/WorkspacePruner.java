package dev.switchboard.core.thread;

import dev.switchboard.core.clock.InstanceClock;
import dev.switchboard.core.clock.PeriodicTask;
import dev.switchboard.core.engine.WorkspaceSettings;
import dev.switchboard.core.workspace.Workspaces;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.ejb.EJB;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ScheduledExecutorService;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Prunes the workspaces' repositories (issue 36): every period, the instance that claims it
 * garbage-collects each thread's repository, keeping every commit something stored names — the
 * head, the recorded turns, a conversation's checkpoints ({@link WorkspaceCommits}, one bean per
 * source) — and dropping what nothing reaches once it is older than the retention (the commits of
 * executions that were never recorded, a failed turn's objects). A thread that fails is logged and
 * the others go on.
 */
@Singleton
@Startup
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class WorkspacePruner {

    private static final Logger LOG = Logger.getLogger(WorkspacePruner.class.getName());
    /** Its periodic claim (V20). */
    static final String PRUNING = "workspace-pruning";

    @Resource
    ManagedThreadFactory threadFactory;

    @EJB
    ThreadWorkspaces threads;

    @Inject
    Instance<WorkspaceCommits> sources;

    @Inject
    PeriodicClaims claims;

    @Inject
    WorkspaceSettings settings;

    @Inject
    InstanceClock clock;

    /** Who holds the claim (only read by people looking at the row). */
    private final String owner = "workspace-pruner-" + UUID.randomUUID();
    private ScheduledExecutorService scheduler;

    @PostConstruct
    void start() {
        scheduler = PeriodicTask.every(threadFactory, settings.pruneEveryMs(), LOG, "Pruning workspaces", this::pass);
    }

    @PreDestroy
    void stop() {
        scheduler.shutdownNow();
    }

    /** One pass; returns how many repositories it pruned. */
    int pass() {
        long now = clock.millis();
        if (!claims.claimPeriod(PRUNING, owner, now, settings.pruneEveryMs())) {
            return 0;
        }
        Workspaces workspaces = settings.workspaces();
        Instant expire = Instant.ofEpochMilli(now).minus(settings.retention());
        int pruned = 0;
        long before = 0;
        long after = 0;
        for (long threadId : threads.withIdleWorkspace()) { // a turn writing to one now is left for a later pass
            try {
                Set<String> named = new HashSet<>();
                sources.forEach(source -> named.addAll(source.named(threadId)));
                Optional<Workspaces.Pruned> done = workspaces.prune(threadId, named, expire);
                if (done.isPresent()) {
                    pruned++;
                    before += done.get().bytesBefore();
                    after += done.get().bytesAfter();
                }
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "Pruning the workspace of thread " + threadId + " failed; the others go on", e);
            }
        }
        if (pruned > 0) {
            int count = pruned;
            long was = before;
            long is = after;
            LOG.info(() -> "Pruned " + count + " workspace repositories: " + was + " bytes before, " + is + " after");
        }
        return pruned;
    }
}
