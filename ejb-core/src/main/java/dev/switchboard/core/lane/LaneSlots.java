package dev.switchboard.core.lane;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

/**
 * This instance's execution slots and lane wake-ups: how many runs may execute at once, which
 * lanes wait for a slot (in wake-up order), and which lane is driven by whom. Each execution holds
 * one slot; a lane has at most one driver, the execution (or claim in progress) that will look at
 * the lane again when it ends. A wake-up for a driven lane only marks it, and the driver's end
 * turns the mark into a new wake-up, so no wake-up is lost. Plain and synchronised: every method
 * is a few map operations.
 *
 * <p>Methods that may free a slot return the lanes to drive now: each already holds a slot and has
 * the returned token as its driver; the caller must claim it and end with {@link #end}.
 */
public final class LaneSlots {

    /** A lane whose slot and driver are taken: claim it, then hand it over or end it. */
    public record Dispatch(long threadId, Object driver) {
    }

    private static final class Driver {
        final Object token;
        boolean woken;

        Driver(Object token, boolean woken) {
            this.token = token;
            this.woken = woken;
        }
    }

    private final int capacity;
    private int free;
    private boolean accepting = true;
    private final LinkedHashSet<Long> pending = new LinkedHashSet<>();
    private final Map<Long, Driver> drivers = new HashMap<>();

    public LaneSlots(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be at least 1, was " + capacity);
        }
        this.capacity = capacity;
        this.free = capacity;
    }

    /** The thread may have runnable work. */
    public synchronized List<Dispatch> wake(long threadId) {
        Driver driver = drivers.get(threadId);
        if (driver != null) {
            driver.woken = true; // its driver looks again when it lets the lane go
            return List.of();
        }
        pending.add(threadId);
        return dispatch();
    }

    /** Takes a slot for a claim made inside another transaction (an ingest); false at capacity or when stopping. */
    public synchronized boolean reserve() {
        if (!accepting || free == 0) {
            return false;
        }
        free--;
        return true;
    }

    /**
     * The holder of a slot (a dispatch, a reservation, or an execution chaining the lane's next run)
     * now executes on it as {@code driver}, which becomes the lane's driver: a newer attempt
     * supersedes whatever drove the lane before, keeping its mark.
     */
    public synchronized void drive(long threadId, Object driver) {
        Driver current = drivers.get(threadId);
        drivers.put(threadId, new Driver(driver, current != null && current.woken));
    }

    /**
     * The holder of a slot ends ({@code token}: what it was known by, or null for a reservation
     * that claimed nothing): its slot is freed, and if it drove the lane the lane is let go — and
     * woken again when it was marked meanwhile.
     */
    public synchronized List<Dispatch> end(long threadId, Object token) {
        free++;
        Driver driver = drivers.get(threadId);
        if (token != null && driver != null && driver.token == token) {
            drivers.remove(threadId);
            if (driver.woken) {
                pending.add(threadId);
            }
        }
        return dispatch();
    }

    /** Gives back a reservation that claimed nothing (no lane to let go). */
    public synchronized List<Dispatch> unreserve() {
        free++;
        return dispatch();
    }

    /** Stops handing out slots (shutdown); pending wake-ups are dropped. */
    public synchronized void stopAccepting() {
        accepting = false;
        pending.clear();
    }

    public synchronized int free() {
        return accepting ? free : 0;
    }

    public synchronized int inUse() {
        return capacity - free;
    }

    /** True when the lane has a driver here. */
    public synchronized boolean isDriven(long threadId) {
        return drivers.containsKey(threadId);
    }

    private List<Dispatch> dispatch() {
        if (!accepting || pending.isEmpty() || free == 0) {
            return List.of();
        }
        List<Dispatch> out = new ArrayList<>();
        Iterator<Long> it = pending.iterator();
        while (free > 0 && it.hasNext()) {
            long threadId = it.next();
            it.remove();
            if (drivers.containsKey(threadId)) {
                drivers.get(threadId).woken = true;
                continue;
            }
            Object token = new Object();
            drivers.put(threadId, new Driver(token, false));
            free--;
            out.add(new Dispatch(threadId, token));
        }
        return out;
    }
}
