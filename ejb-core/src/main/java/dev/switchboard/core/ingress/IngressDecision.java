package dev.switchboard.core.ingress;

import java.util.Optional;
import java.util.function.BooleanSupplier;

/**
 * What becomes of a received event (holon-serve spec §9.4 with H9 and H10), first rule wins:
 * a known dedupe key makes it a duplicate; a paused runtime holds it (a timer tick is dropped as
 * a duplicate when one for the same repository is already held: missed ticks fire once); an
 * event behind held events of its lane is held too, so the lane keeps arrival order; otherwise
 * it is forwarded to its lane. Facts that cost a query are asked only when a rule needs them.
 */
public record IngressDecision(Kind kind, String reason) {

    public enum Kind { DUPLICATE, HOLD, FORWARD }

    static final String DUPLICATE_KEY = "duplicate dedupe_key";
    static final String PAUSED = "runtime paused";
    static final String COALESCED_TICK = "timer tick already held while paused";
    static final String BEHIND_HELD = "earlier events of this session are still held";

    /** What is known about the event when it arrives. */
    public record Facts(boolean keySeen, boolean keyHeld, boolean paused, boolean timer,
            BooleanSupplier tickHeldForRepo, boolean laneHasHeld) {
    }

    public static IngressDecision decide(Facts f) {
        if (f.keySeen() || f.keyHeld()) {
            return new IngressDecision(Kind.DUPLICATE, DUPLICATE_KEY);
        }
        if (f.paused()) {
            if (f.timer() && f.tickHeldForRepo().getAsBoolean()) {
                return new IngressDecision(Kind.DUPLICATE, COALESCED_TICK);
            }
            return new IngressDecision(Kind.HOLD, PAUSED);
        }
        if (f.laneHasHeld()) {
            return new IngressDecision(Kind.HOLD, BEHIND_HELD);
        }
        return new IngressDecision(Kind.FORWARD, null);
    }

    /**
     * Why an event cannot be requeued (H9: only an accepted event whose last run failed), or
     * empty when it can. {@code runState} is the wire state of its last run, null when it has none.
     */
    public static Optional<String> requeueRefusal(String eventId, String status, String runState) {
        if (!"accepted".equals(status)) {
            return Optional.of("event " + eventId + " is " + status
                    + "; only an accepted event whose run failed can be requeued");
        }
        if (runState != null && !"failed".equals(runState)) {
            return Optional.of("event " + eventId + " has a run that is " + runState
                    + "; only a failed run can be requeued");
        }
        return Optional.empty();
    }
}
