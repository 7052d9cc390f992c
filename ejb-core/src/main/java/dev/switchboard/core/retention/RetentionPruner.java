package dev.switchboard.core.retention;

import dev.switchboard.core.clock.InstanceClock;
import dev.switchboard.core.clock.PeriodicTask;
import dev.switchboard.core.engine.WorkspaceSettings;
import dev.switchboard.core.lane.AgedRun;
import dev.switchboard.core.lane.LaneSettings;
import dev.switchboard.core.metrics.Meters;
import dev.switchboard.core.thread.PeriodicClaims;
import dev.switchboard.core.thread.ThreadWorkspaces;
import dev.switchboard.core.workspace.Workspaces;
import dev.switchboard.persistence.run.RunKind;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.ejb.EJB;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.inject.Inject;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.IntSupplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Deletes what has aged past its retention ({@link RetentionPolicy}): every period, the instance that
 * claims it works through each kind in batches ({@link RetentionLedger}, one short transaction
 * each, a pause between two), for at most most of a period, so a backlog — the first pass over a
 * year of history — is worked off over several passes without taking the database from the hot
 * path. One instance at a time, on its own thread: the claim is a {@code periodic_claims} row.
 */
@Singleton
@Startup
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class RetentionPruner {

    private static final Logger LOG = Logger.getLogger(RetentionPruner.class.getName());
    /** Its periodic claim (V22). */
    static final String PRUNING = "history-retention";

    @Resource
    ManagedThreadFactory threadFactory;

    @EJB
    RetentionLedger ledger;

    @Inject
    RetentionSettings settings;

    @Inject
    WorkspaceSettings workspaces;

    @Inject
    PeriodicClaims claims;

    @Inject
    LaneSettings lanes;

    @Inject
    InstanceClock clock;

    @Inject
    Meters meters;

    private ScheduledExecutorService scheduler;

    @PostConstruct
    void start() {
        Optional<RetentionPolicy> policy = settings.policy();
        if (policy.isEmpty() || !policy.get().prunesAnything()) {
            LOG.info("Retention: everything is kept");
            return;
        }
        LOG.info(() -> "Retention: " + policy.get().describe());
        scheduler = PeriodicTask.every(threadFactory, settings.everyMs(), LOG, "Pruning aged records", this::pass);
    }

    @PreDestroy
    void stop() {
        if (scheduler != null) {
            scheduler.shutdownNow();
        }
    }

    /** One pass; returns how many records it deleted. */
    long pass() {
        long now = clock.millis();
        if (!claims.claimPeriod(PRUNING, lanes.instanceId(), now, settings.everyMs())) {
            return 0;
        }
        RetentionPolicy policy = settings.policy().orElseThrow();
        long deadline = now + settings.everyMs() * 8 / 10;
        Workspaces dirs = workspaces.workspaces();
        long deleted = 0;
        for (RunKind kind : RunKind.values()) {
            Optional<Long> cutoff = policy.runsCutoff(kind, now);
            if (cutoff.isPresent()) {
                long[] after = {Long.MIN_VALUE}; // each batch after the last one's newest run
                deleted += batches(kind.wire() + "-runs", deadline, () -> pruneRuns(kind, after, cutoff.get(), dirs));
            }
        }
        Optional<Long> journal = policy.delegationJournalCutoff(now);
        if (journal.isPresent()) {
            deleted += batches("delegation-journal", deadline, () -> ledger.pruneJournal(journal.get(), settings.batch()));
        }
        Optional<Long> items = policy.itemsCutoff(now);
        if (items.isPresent()) {
            long[] after = {0};
            deleted += batches("thread-items", deadline, () -> {
                List<Long> gone = ledger.pruneItems(after[0], items.get(), settings.batch());
                if (!gone.isEmpty()) {
                    after[0] = gone.get(gone.size() - 1);
                }
                return gone.size();
            });
        }
        Optional<Long> idle = policy.idleWorkspacesCutoff(now);
        if (idle.isPresent()) {
            deleted += retireIdleWorkspaces(idle.get(), deadline);
        }
        deleteRetired(dirs);
        return deleted;
    }

    /** Batches of one kind until one comes back short or the pass's time is up; returns how many went. */
    private long batches(String kind, long deadline, IntSupplier batch) {
        long total = 0;
        while (true) {
            int done = batch.getAsInt();
            total += done;
            meters.retentionDeleted(kind, done);
            if (done < settings.batch() || clock.millis() >= deadline || !paused()) {
                break;
            }
        }
        if (total > 0) {
            long count = total;
            LOG.info(() -> "Retention deleted " + count + " " + kind);
        }
        return total;
    }

    private int pruneRuns(RunKind kind, long[] after, long cutoff, Workspaces dirs) {
        List<AgedRun> gone = ledger.pruneRuns(kind, after[0], cutoff, settings.batch());
        if (!gone.isEmpty()) {
            after[0] = gone.get(gone.size() - 1).createdAt();
        }
        for (AgedRun run : gone) { // after the commit: a record without its run is never read
            try {
                dirs.deleteTurnRecord(run.threadId(), run.runId());
            } catch (IOException | RuntimeException e) {
                LOG.log(Level.WARNING, "Deleting the workspace record of run " + run.runId() + " failed", e);
            }
        }
        return gone.size();
    }

    /**
     * Moves aside the repository of every thread with a workspace that has had no run since
     * {@code cutoff} and whose lane nobody holds, and moves its line back to the start, looking at
     * the threads in id order until {@code deadline}; returns how many it retired. A thread whose
     * workspace has no directory (never used, or retired before) is passed over.
     */
    private int retireIdleWorkspaces(long cutoff, long deadline) {
        return retireIdleWorkspaces(workspaces.workspaces(), cutoff, deadline);
    }

    /** As {@link #retireIdleWorkspaces(long, long)}, the workspaces under {@code dirs} (the in-process tests'). */
    int retireIdleWorkspaces(Workspaces dirs, long cutoff, long deadline) {
        int retired = 0;
        long after = 0;
        ThreadWorkspaces.IdlePage page;
        do {
            page = ledger.idleWorkspaces(cutoff, after, settings.batch());
            after = page.last();
            for (long threadId : page.idle()) {
                if (!Files.isDirectory(dirs.threadDir(threadId))) {
                    continue;
                }
                try {
                    if (ledger.resetWorkspace(threadId, cutoff, () -> dirs.retire(threadId))) {
                        retired++;
                    }
                } catch (RuntimeException e) {
                    LOG.log(Level.WARNING, "Retiring the idle workspace of thread " + threadId
                            + " failed; the others go on", e);
                }
            }
        } while (page.full() && clock.millis() < deadline);
        meters.retentionDeleted("idle-workspaces", retired);
        if (retired > 0) {
            int count = retired;
            LOG.info(() -> "Retention retired " + count + " idle workspaces");
        }
        return retired; // the directories moved aside are deleted at the end of the pass
    }

    /** Deletes the directories moved aside (by this pass, or by one a crash cut short). */
    private void deleteRetired(Workspaces dirs) {
        if (!Files.isDirectory(dirs.root())) {
            return;
        }
        try (DirectoryStream<Path> retired = Files.newDirectoryStream(dirs.root(), "retired-t*")) {
            for (Path dir : retired) {
                Workspaces.deleteTree(dir);
            }
        } catch (IOException e) {
            LOG.log(Level.WARNING, "Deleting retired workspaces failed; the next pass tries again", e);
        }
    }

    /** False when the server is stopping (the pass ends there; the next instance's pass goes on). */
    private boolean paused() {
        try {
            Thread.sleep(settings.pauseMs());
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
