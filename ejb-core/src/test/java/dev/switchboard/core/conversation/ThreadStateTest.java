package dev.switchboard.core.conversation;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.switchboard.core.conversation.ThreadState.Event;
import dev.switchboard.core.conversation.ThreadState.InputHandling;
import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The thread state machine of spec §4, every state against every event, and input by state (§7). */
class ThreadStateTest {

    @Test
    void everyMoveIsTheSpecsAndNothingElse() {
        Map<ThreadState, Map<Event, ThreadState>> allowed = new EnumMap<>(ThreadState.class);
        for (ThreadState s : ThreadState.values()) {
            Map<Event, ThreadState> moves = new EnumMap<>(Event.class);
            moves.put(Event.CLEAR, ThreadState.IDLE);
            moves.put(Event.RESTORE, ThreadState.IDLE);
            allowed.put(s, moves);
        }
        allowed.get(ThreadState.IDLE).put(Event.INPUT, ThreadState.PROCESSING);
        allowed.get(ThreadState.INTERRUPTED).put(Event.INPUT, ThreadState.PROCESSING);
        allowed.get(ThreadState.INTERRUPTED).put(Event.RESUME, ThreadState.IDLE);
        allowed.get(ThreadState.PROCESSING).put(Event.TURN_ENDED, ThreadState.IDLE);
        allowed.get(ThreadState.PROCESSING).put(Event.NEEDS_APPROVAL, ThreadState.AWAITING_APPROVAL);
        allowed.get(ThreadState.PROCESSING).put(Event.INTERRUPT, ThreadState.INTERRUPTED);
        allowed.get(ThreadState.AWAITING_APPROVAL).put(Event.INTERRUPT, ThreadState.INTERRUPTED);
        allowed.get(ThreadState.AWAITING_APPROVAL).put(Event.DENY, ThreadState.IDLE);
        allowed.get(ThreadState.AWAITING_APPROVAL).put(Event.APPROVE, ThreadState.PROCESSING);
        for (ThreadState s : ThreadState.values()) {
            for (Event e : Event.values()) {
                assertEquals(Optional.ofNullable(allowed.get(s).get(e)), s.on(e), s + " on " + e);
            }
        }
    }

    @Test
    void inputRunsQueuesRemindsOrIsRefusedByState() {
        assertEquals(InputHandling.RUN_TURN, ThreadState.IDLE.inputHandling());
        assertEquals(InputHandling.RUN_TURN, ThreadState.INTERRUPTED.inputHandling());
        assertEquals(InputHandling.QUEUE, ThreadState.PROCESSING.inputHandling());
        assertEquals(InputHandling.REMIND_APPROVAL, ThreadState.AWAITING_APPROVAL.inputHandling());
        assertEquals(InputHandling.REFUSE, ThreadState.COMPLETED.inputHandling());
    }

    @Test
    void labelsAreTheReferencesNames() {
        assertEquals("AwaitingApproval", ThreadState.AWAITING_APPROVAL.label());
        assertEquals(Optional.of(ThreadState.INTERRUPTED), ThreadState.ofLabel("Interrupted"));
        assertEquals(Optional.empty(), ThreadState.ofLabel("interrupted"));
    }

    @Test
    void aDurableThreadsStateIsDerivedFromItsTurnsAndItsPendingApproval() {
        assertEquals(ThreadState.PROCESSING, ThreadState.of(true, true), "a turn, even one waiting, comes first");
        assertEquals(ThreadState.PROCESSING, ThreadState.of(true, false));
        assertEquals(ThreadState.AWAITING_APPROVAL, ThreadState.of(false, true));
        assertEquals(ThreadState.IDLE, ThreadState.of(false, false));
    }
}
