package dev.switchboard.persistence.run;

import jakarta.persistence.AttributeConverter;
import jakarta.persistence.Converter;

/** Stores {@link RunKind} as its lower-case wire name, as the schema stores it. */
@Converter
public class RunKindConverter implements AttributeConverter<RunKind, String> {

    @Override
    public String convertToDatabaseColumn(RunKind kind) {
        return kind == null ? null : kind.wire();
    }

    @Override
    public RunKind convertToEntityAttribute(String column) {
        return column == null ? null : RunKind.fromWire(column);
    }
}
