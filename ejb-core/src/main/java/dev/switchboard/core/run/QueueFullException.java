package dev.switchboard.core.run;

import jakarta.ejb.ApplicationException;

/** A thread's queue is at its cap ({@link QueueCaps}): the new run was not stored. */
@ApplicationException(rollback = true)
public class QueueFullException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final Integer item;

    public QueueFullException(int cap) {
        this("the thread already holds " + cap + " unfinished runs; retry once some have finished", null);
    }

    private QueueFullException(String message, Integer item) {
        super(message);
        this.item = item;
    }

    /** The index of the message in a batch that met the cap; null outside a batch. */
    public Integer item() {
        return item;
    }

    /** This refusal, met at index {@code index} of a batch. */
    public QueueFullException at(int index) {
        return new QueueFullException(getMessage(), index);
    }
}
