package dev.switchboard.core.execution;

import java.util.function.Supplier;

/** Where an execution's reads outside a transaction are made: {@link ScopedReads} in the container, in place in plain tests. */
@FunctionalInterface
public interface ReadScope {

    /** What the scope reads in place. */
    ReadScope IN_PLACE = new ReadScope() {
        @Override
        public <T> T read(Supplier<T> read) {
            return read.get();
        }
    };

    <T> T read(Supplier<T> read);
}
