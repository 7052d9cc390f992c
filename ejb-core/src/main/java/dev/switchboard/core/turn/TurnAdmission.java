package dev.switchboard.core.turn;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * The policy part of {@code turn/start}: given the thread's active turns, what the new turn does
 * to each of them — leave it queued, supersede it (skip its runs, and under {@code collect} carry
 * its input into the new turn), or interrupt it — and with what input the new turn starts; or the
 * refusal of a full queue. Plain Java: {@link TurnLedger} applies the decision to the locked lane.
 *
 * <p>A policy acts only on turns that came through the same door as the new one: a run another
 * door acknowledged (a {@code POST /v1/messages}, a {@code turn/start} on a chat thread, the
 * server's own resumed tool loop or summary) is a turn of its own, in arrival order, and its
 * client gets that run's result — it is never superseded, merged or interrupted by another door's
 * policy.
 *
 * @param superseded active turns that end superseded, their runs skipped
 * @param merged whether the superseded turns were merged into the new one (their input carried)
 * @param interrupted active turns interrupted as by {@code turn/interrupt}
 * @param reason the message the superseded and interrupted turns end with
 * @param input the new turn's input: carried input first, in the order the turns were started
 */
public record TurnAdmission(List<String> superseded, boolean merged, List<String> interrupted, String reason,
        TurnInput input) {

    /**
     * An active turn of the thread, oldest first.
     *
     * @param started whether any of its runs has left the queue
     * @param sameDoor whether its runs came through the new turn's door (their source is the new run's)
     * @param inputs its runs' inputs in lane order, read only when a policy carries them forward
     */
    public record Active(String turnId, boolean started, boolean sameDoor, Supplier<List<TurnInput>> inputs) {

        /** Whether the new turn's policy may act on it at all. */
        boolean ownDoorsWaiting() {
            return sameDoor && !started;
        }
    }

    /** How a thread admits a new turn, given its active turns (oldest first). */
    @FunctionalInterface
    public interface Rule {
        TurnAdmission decide(String threadKey, List<Active> active, TurnInput input);
    }

    /** The configured follow-up policy and queue limit of RPC turns. */
    public static Rule of(TurnPolicy policy, int maxQueued) {
        return (threadKey, active, input) -> decide(policy, maxQueued, threadKey, active, input);
    }

    /**
     * A person's conversation (IronClaw's queue, spec §7.1): messages sent while a turn runs wait
     * in one turn that has not started, merged in the order they came, and run together when the
     * running turn ends; at most {@code maxMessages} wait. Only the waiting message turns at the end
     * of the queue merge: behind a run from another door, a message starts a new waiting turn, so
     * every run keeps its place in arrival order.
     *
     * @throws TurnRejectedException {@code QUEUE_FULL} with {@code fullMessage} when that many wait already
     */
    public static Rule queueing(int maxMessages, String fullMessage) {
        return (threadKey, active, input) -> {
            // each waiting message turn's input, read once: it counts towards the limit, and the tail's merges
            java.util.Map<Active, List<TurnInput>> waitingInputs = new java.util.IdentityHashMap<>();
            int waiting = 0;
            for (Active older : active) {
                if (older.ownDoorsWaiting()) {
                    List<TurnInput> its = older.inputs().get();
                    waitingInputs.put(older, its);
                    for (TurnInput messages : its) {
                        waiting += messages.size();
                    }
                }
            }
            if (waiting >= maxMessages) {
                throw new TurnRejectedException(TurnRejectedException.Reason.QUEUE_FULL, fullMessage);
            }
            int tail = active.size();
            while (tail > 0 && active.get(tail - 1).ownDoorsWaiting()) {
                tail--;
            }
            List<String> superseded = new ArrayList<>();
            TurnInput carried = null;
            for (Active older : active.subList(tail, active.size())) {
                superseded.add(older.turnId());
                for (TurnInput earlier : waitingInputs.get(older)) {
                    carried = carried == null ? earlier : carried.then(earlier);
                }
            }
            return new TurnAdmission(List.copyOf(superseded), !superseded.isEmpty(), List.of(),
                    "merged into the next turn", carried == null ? input : carried.then(input));
        };
    }

    /**
     * Decides the new turn's admission.
     *
     * @throws TurnRejectedException {@code QUEUE_FULL} when the thread already has {@code maxQueued} active turns
     */
    public static TurnAdmission decide(TurnPolicy policy, int maxQueued, String threadKey, List<Active> active,
            TurnInput input) {
        if (active.size() >= maxQueued) {
            throw new TurnRejectedException(TurnRejectedException.Reason.QUEUE_FULL,
                    TurnPolicy.queueFullMessage(threadKey, maxQueued));
        }
        List<String> superseded = new ArrayList<>();
        List<String> interrupted = new ArrayList<>();
        TurnInput carried = null;
        for (Active older : active) {
            if (!older.sameDoor()) {
                continue; // another door's run keeps its place: the new turn queues behind it
            }
            switch (policy.effectOn(older.started())) {
                case SUPERSEDE -> {
                    superseded.add(older.turnId());
                    if (policy.carriesInputForward()) {
                        for (TurnInput earlier : older.inputs().get()) {
                            carried = carried == null ? earlier : carried.then(earlier);
                        }
                    }
                }
                case INTERRUPT -> interrupted.add(older.turnId());
                case KEEP -> {
                }
            }
        }
        return new TurnAdmission(List.copyOf(superseded), policy.carriesInputForward() && !superseded.isEmpty(),
                List.copyOf(interrupted), policy.supersededReason(), carried == null ? input : carried.then(input));
    }
}
