package dev.switchboard.core.thread;

import jakarta.ejb.EJB;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.json.JsonObject;
import java.util.Optional;

/**
 * Threads' workspaces as the web modules reach them: a thread's line, turning one on, and a run's
 * turn record. Each call is one transaction of {@link ThreadWorkspaces}, as if the caller had made
 * it there.
 */
@Stateless
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class WorkspaceService {

    @EJB
    ThreadWorkspaces workspaces;

    /** The thread's workspace; a thread that does not exist (yet) has none — unless every thread has one. */
    public WorkspaceView view(String userKey, String threadKey) {
        return workspaces.view(userKey, threadKey);
    }

    /** Gives the thread a workspace (creating the thread when new); its runs claimed from now on work in it. */
    public WorkspaceView enable(String userKey, String threadKey) {
        return workspaces.enable(userKey, threadKey);
    }

    /**
     * The record of the user's run {@code runId} in its thread's workspace ({@code turn.json} with the
     * run's status now, and its change set); empty when the user has no such run or it never worked in one.
     */
    public Optional<JsonObject> record(String userKey, String runId) {
        return workspaces.record(userKey, runId);
    }
}
