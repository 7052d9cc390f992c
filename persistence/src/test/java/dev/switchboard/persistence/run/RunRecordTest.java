package dev.switchboard.persistence.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** The run entity's column mapping (a run as first written is the lane's {@code NewRun}, tested there). */
class RunRecordTest {

    @Test
    void stateNamesRoundTripThroughTheColumnConverter() {
        RunStateConverter converter = new RunStateConverter();
        for (RunState s : RunState.values()) {
            assertEquals(s, converter.convertToEntityAttribute(converter.convertToDatabaseColumn(s)));
        }
        assertEquals("executing", converter.convertToDatabaseColumn(RunState.EXECUTING));
        assertThrows(IllegalArgumentException.class, () -> RunState.fromWire("running"));
    }
}
