package dev.switchboard.core.workspace;

/** A workspace tool's request refused; the message is the clear error text the tool answers with. */
public final class WorkspaceRefusal extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public WorkspaceRefusal(String message) {
        super(message, null, false, false);
    }
}
