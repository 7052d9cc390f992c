package dev.switchboard.core.chat;

import dev.switchboard.core.clock.InstanceClock;
import dev.switchboard.core.clock.PeriodicTask;
import dev.switchboard.core.lane.LaneSettings;
import dev.switchboard.core.thread.PeriodicClaims;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.ejb.EJB;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Prunes idle chat sessions (spec §2.5): every period (the first one period after start), the
 * instance that claims the period removes the sessions idle longer than the timeout whose threads
 * have no active turn, firing {@link SessionEnded} for each once its removal is committed (so no
 * observer hears of a removal that rolled back). One instance at a time:
 * the claim is a row only one instance's update can take until the next period.
 */
@Singleton
@Startup
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class ChatPruner {

    private static final Logger LOG = Logger.getLogger(ChatPruner.class.getName());
    /** Sessions looked at per pass; the rest wait for the next one. */
    static final int PER_PASS = 1000;
    /** Its periodic claim (V14). */
    static final String PRUNING = "chat-session-pruning";

    @Resource
    ManagedThreadFactory threadFactory;

    @EJB
    ChatLedger ledger;

    @Inject
    PeriodicClaims claims;

    @Inject
    ChatRecords records;

    @Inject
    ChatSettings settings;

    @Inject
    LaneSettings lanes;

    @Inject
    InstanceClock clock;

    @Inject
    Event<SessionEnded> sessionEnded;

    private ScheduledExecutorService scheduler;

    @PostConstruct
    void start() {
        scheduler = PeriodicTask.every(threadFactory, settings.pruneEveryMs(), LOG, "Pruning idle chat sessions", this::pass);
    }

    @PreDestroy
    void stop() {
        scheduler.shutdownNow();
    }

    /** One pass; returns how many sessions it pruned. */
    int pass() {
        long now = clock.millis();
        if (!claims.claimPeriod(PRUNING, lanes.instanceId(), now, settings.pruneEveryMs())) {
            return 0;
        }
        long cutoff = now - settings.sessionIdleTimeout().toMillis();
        int pruned = 0;
        for (ChatRecords.SessionRow idle : records.idleSessions(cutoff, PER_PASS)) {
            Optional<SessionEnded> ended = ledger.prune(idle.userKey(), cutoff, now);
            if (ended.isPresent()) {
                pruned++;
                sessionEnded.fireAsync(ended.get()).exceptionally(error -> {
                    LOG.log(Level.WARNING, "A SessionEnded observer failed; the pruning is unaffected", error);
                    return null;
                });
            }
        }
        if (pruned > 0) {
            int count = pruned;
            LOG.info(() -> "Pruned " + count + " stale session(s) (idle > " + settings.sessionIdleTimeout().toSeconds()
                    + "s)");
        }
        return pruned;
    }
}
