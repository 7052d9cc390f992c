package dev.switchboard.core.workspace;

/**
 * What recording an execution's change set does to its thread's workspace line — the rule the
 * lane's finish applies under the thread's lock. The change set was taken on top of {@code base};
 * if the line is no longer there (it cannot move while the lane is held, except by an operator's
 * hand) the run fails and its commit stays unreachable; otherwise the line moves to the commit, or
 * stays when the execution changed nothing.
 *
 * @param conflict the line moved since the worktree was checked out
 * @param to the commit the line moves to; null when it stays
 */
public record LineMove(boolean conflict, String to) {

    /** Nothing to record: the line stays. */
    public static final LineMove NONE = new LineMove(false, null);

    /**
     * @param head the line now (null: the thread has no line of its own yet, i.e. its start)
     * @param base the head the execution's worktree was checked out at
     * @param commit the commit of its change set; null when it changed nothing
     */
    public static LineMove of(String head, String base, String commit) {
        String now = head == null ? Workspaces.START : head;
        return now.equals(base) ? new LineMove(false, commit) : new LineMove(true, null);
    }

    public boolean moves() {
        return to != null;
    }
}
