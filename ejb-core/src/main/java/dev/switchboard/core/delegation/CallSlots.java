package dev.switchboard.core.delegation;

import dev.switchboard.core.delegation.PathRegistry.PathRow;
import dev.switchboard.core.engine.Delegation;
import dev.switchboard.core.sql.Statements;
import dev.switchboard.core.sql.Store;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;

/**
 * The call slots ({@code path_calls}): one per call a caller's run made, numbered in the order it
 * made them, pending until its reply — or a SystemError in its place — is in. A slot is answered
 * only while pending, so every call gets exactly one answer.
 */
@Store("path_calls")
@ApplicationScoped
public class CallSlots {

    /** The {@code from} of a reply no listener gave (a routing or depth refusal). */
    public static final String SYSTEM = "system";

    private static final String SLOT_COLUMNS = "caller_run_id, slot, call_index, caller_uuid, caller_thread, root_uuid,"
            + " to_name, child_uuid, from_name, status, code, result_text, deadline_at, created_at, replied_at";
    private static final String INSERT_SLOT = "INSERT INTO path_calls (" + SLOT_COLUMNS
            + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
    private static final String SLOTS_OF = "SELECT " + SLOT_COLUMNS + " FROM path_calls WHERE caller_run_id = ? ORDER BY slot";
    private static final String SLOT_OF_CHILD = "SELECT " + SLOT_COLUMNS + " FROM path_calls WHERE child_uuid = ?";
    private static final String SLOT = "SELECT " + SLOT_COLUMNS + " FROM path_calls WHERE caller_run_id = ? AND slot = ?";
    private static final String ANSWER_SLOT = "UPDATE path_calls SET status = ?, from_name = ?, code = ?, result_text = ?,"
            + " replied_at = ? WHERE caller_run_id = ? AND slot = ? AND status = 'pending'";
    private static final String DROP_PENDING = "UPDATE path_calls SET status = 'error', code = 'cancelled',"
            + " result_text = 'The caller''s path was closed.', replied_at = ? WHERE caller_run_id = ? AND caller_uuid = ?"
            + " AND status = 'pending'";
    private static final String REPLIES = "SELECT call_index, from_name, status, code, result_text FROM path_calls"
            + " WHERE caller_run_id = ? AND status <> 'pending' ORDER BY slot";
    private static final String PENDING = "SELECT count(*) FROM path_calls WHERE caller_run_id = ? AND status = 'pending'";
    private static final String OVERDUE = "SELECT caller_run_id, slot FROM path_calls WHERE status = 'pending'"
            + " AND deadline_at < ? ORDER BY deadline_at FETCH FIRST 100 ROWS ONLY";

    /** One call slot: what a caller run waits for, or the reply it got. */
    public record SlotRow(String callerRunId, int slot, int callIndex, String callerUuid, long callerThread,
            String rootUuid, String to, String childUuid, String from, String status, String code, String text,
            Long deadlineAt, long createdAt, Long repliedAt) {

        public boolean isPending() {
            return "pending".equals(status);
        }
    }

    @Inject
    Statements statements;

    public CallSlots() {
    }

    /** Built outside the container (the in-process tests). */
    public CallSlots(Statements statements) {
        this.statements = statements;
    }

    // --- reads ---

    public List<SlotRow> slotsOf(String runId) {
        return statements.query(SLOTS_OF, s -> s.setString(1, runId), CallSlots::slotRow, "reading call slots");
    }

    /** The slot the call of path {@code childUuid} answers. */
    public Optional<SlotRow> slotOfChild(String childUuid) {
        return first(statements.query(SLOT_OF_CHILD, s -> s.setString(1, childUuid), CallSlots::slotRow,
                "reading the call of path " + childUuid));
    }

    public Optional<SlotRow> slot(String callerRunId, int slot) {
        return first(statements.query(SLOT, s -> {
            s.setString(1, callerRunId);
            s.setInt(2, slot);
        }, CallSlots::slotRow, "reading call slot " + slot + " of run " + callerRunId));
    }

    /** How many of its calls the caller's run still waits for. */
    public int pending(String callerRunId) {
        return statements.query(PENDING, s -> s.setString(1, callerRunId), rs -> rs.getInt(1), "counting pending calls")
                .get(0);
    }

    /** Call slots past their deadline, as (caller run, slot) pairs; read without a lock. */
    public List<SlotRow> overdue(long now) {
        return statements.query(OVERDUE, s -> s.setLong(1, now), rs -> new SlotRow(rs.getString(1), rs.getInt(2), 0,
                null, 0, null, null, null, null, null, null, null, null, 0, null), "reading overdue calls");
    }

    // --- writes ---

    public void insert(SlotRow r) {
        statements.updateOne(INSERT_SLOT, s -> {
            s.setString(1, r.callerRunId());
            s.setInt(2, r.slot());
            s.setInt(3, r.callIndex());
            s.setString(4, r.callerUuid());
            s.setLong(5, r.callerThread());
            s.setString(6, r.rootUuid());
            s.setString(7, r.to());
            s.setString(8, r.childUuid());
            s.setString(9, r.from());
            s.setString(10, r.status());
            s.setString(11, r.code());
            s.setString(12, r.text());
            Statements.setLong(s, 13, r.deadlineAt());
            s.setLong(14, r.createdAt());
            Statements.setLong(s, 15, r.repliedAt());
        }, "storing call slot " + r.slot() + " of run " + r.callerRunId());
    }

    /** Answers the pending {@code slot} with what its callee's run ended as, {@code from} the callee's agent. */
    public void answer(SlotRow slot, String from, PathEnds.CallEnd ended, long now) {
        statements.updateOne(ANSWER_SLOT, s -> {
            s.setString(1, ended.status());
            s.setString(2, from);
            s.setString(3, ended.code());
            s.setString(4, ended.text());
            s.setLong(5, now);
            s.setString(6, slot.callerRunId());
            s.setInt(7, slot.slot());
        }, "answering call slot " + slot.slot() + " of run " + slot.callerRunId());
    }

    /** Answers the pending slot {@code slotNumber} of run {@code callerRunId} with a {@code timeout} SystemError. */
    public void timeOut(String callerRunId, int slotNumber, String from, long now) {
        statements.updateOne(ANSWER_SLOT, s -> {
            s.setString(1, "error");
            s.setString(2, from);
            s.setString(3, "timeout");
            s.setString(4, "No reply in time; retry allowed.");
            s.setLong(5, now);
            s.setString(6, callerRunId);
            s.setInt(7, slotNumber);
        }, "timing out call slot " + slotNumber + " of run " + callerRunId);
    }

    /** Answers every call the run of {@code path} still waits for with a {@code cancelled} SystemError. */
    public void dropPending(PathRow path, long now) {
        statements.update(DROP_PENDING, s -> {
            s.setLong(1, now);
            s.setString(2, path.runId());
            s.setString(3, path.uuid());
        }, "dropping the calls path " + path.uuid() + " waited for");
    }

    // --- rows ---

    private static SlotRow slotRow(ResultSet rs) throws SQLException {
        return new SlotRow(rs.getString(1), rs.getInt(2), rs.getInt(3), rs.getString(4), rs.getLong(5), rs.getString(6),
                rs.getString(7), rs.getString(8), rs.getString(9), rs.getString(10), rs.getString(11), rs.getString(12),
                Statements.getLong(rs, 13), rs.getLong(14), Statements.getLong(rs, 15));
    }

    private static <T> Optional<T> first(List<T> list) {
        return list.isEmpty() ? Optional.empty() : Optional.of(list.get(0));
    }

    /** Retention: deletes the call slots these runs made (deleted with them, in the caller's transaction). */
    public int deleteMadeBy(List<String> callerRunIds) {
        return statements.updateIn("DELETE FROM path_calls WHERE caller_run_id IN (%s)", callerRunIds,
                "deleting aged runs' call slots");
    }

    /** The replies run {@code runId}'s calls have had so far, in slot order. */
    List<Delegation.Reply> replies(String runId) {
        return statements.query(REPLIES, s -> s.setString(1, runId), rs -> new Delegation.Reply(rs.getInt(1),
                rs.getString(2), rs.getString(3), rs.getString(4), rs.getString(5)), "reading replies");
    }
}
