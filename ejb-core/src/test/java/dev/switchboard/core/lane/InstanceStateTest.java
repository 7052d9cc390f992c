package dev.switchboard.core.lane;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** When an instance counts as up, late or stopped (server/instances, the dashboard's cluster view). */
class InstanceStateTest {

    @Test
    void aBeatWithinTheLeasePeriodIsUpAndOneBeyondItLate() {
        assertEquals("up", InstanceBeacon.state(null, 0, 15_000));
        assertEquals("up", InstanceBeacon.state(null, 15_000, 15_000));
        assertEquals("late", InstanceBeacon.state(null, 15_001, 15_000));
    }

    @Test
    void aGracefulStopIsStoppedWhateverItsLastBeat() {
        assertEquals("stopped", InstanceBeacon.state(1_000L, 0, 15_000));
        assertEquals("stopped", InstanceBeacon.state(1_000L, 90_000, 15_000));
    }
}
