package dev.switchboard.core.lane;

import jakarta.json.JsonObject;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * What executing a claimed run means. The lane claims, times, fences, stops and records; the work
 * itself — an engine call with what it reads and where it shows its progress — is plugged in
 * above it ({@code core.execution}), so the lane names no engine and no run's content. Plain Java.
 */
public interface RunWork {

    /** The instance's default work (its engine's name), for the lane's start-up line and its meters. */
    String name();

    /**
     * The work of {@code claim}, ready to start: called on a lane worker, outside any transaction,
     * before the execution is registered. {@code control} is the lane's side, which the work asks
     * whether it may go on.
     */
    Job prepare(Claim claim, Control control);

    /** Work whose preparation failed with {@code failure}: it fails with it at once when started. */
    static RunWork failed(RuntimeException failure) {
        return new RunWork() {
            @Override
            public String name() {
                return "none";
            }

            @Override
            public Job prepare(Claim claim, Control control) {
                return new Job() {
                    @Override
                    public String label() {
                        return "none";
                    }

                    @Override
                    public CompletionStage<JsonObject> start() {
                        return CompletableFuture.failedFuture(failure);
                    }

                    @Override
                    public void stop() {
                        // nothing runs
                    }

                    @Override
                    public void close() {
                        // nothing opened
                    }
                };
            }
        };
    }

    /** The lane's side of an execution, as its work sees it. */
    interface Control {

        /**
         * False once the execution may no longer run — its lease's local deadline has passed, or
         * the lane stopped it; asking at the deadline stops it as having lost its lease, the moment
         * the work checks rather than when a watchdog notices.
         */
        boolean mayContinue();
    }

    /** One execution's work. */
    interface Job {

        /** What runs it, for meters and messages (the engine's name). */
        String label();

        /** Starts it; the stage completes with the run's output ({@code null}: none) or its failure. */
        CompletionStage<JsonObject> start();

        /** Tells it to stop; returns once it has been told. Called again, it waits for the first telling. */
        void stop();

        /** Its result is about to be written (or dropped): nothing it still shows may follow. */
        void close();
    }
}
