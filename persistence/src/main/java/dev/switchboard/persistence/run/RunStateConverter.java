package dev.switchboard.persistence.run;

import jakarta.persistence.AttributeConverter;
import jakarta.persistence.Converter;

/** Stores {@link RunState} as its lower-case wire name, as the schema's check constraint expects. */
@Converter
public class RunStateConverter implements AttributeConverter<RunState, String> {

    @Override
    public String convertToDatabaseColumn(RunState state) {
        return state == null ? null : state.wire();
    }

    @Override
    public RunState convertToEntityAttribute(String column) {
        return column == null ? null : RunState.fromWire(column);
    }
}
