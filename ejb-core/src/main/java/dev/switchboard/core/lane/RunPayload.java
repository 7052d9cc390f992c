package dev.switchboard.core.lane;

/**
 * What a run carries for the features above the lane — whom it is for, its input, what it is — in
 * its row beside the lane's own columns, handed back with every read of the run. Opaque to the
 * lane: it writes and reads it through the plugged-in {@link PayloadColumns} and never looks inside.
 */
public interface RunPayload {
}
