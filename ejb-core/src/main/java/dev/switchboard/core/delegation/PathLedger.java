package dev.switchboard.core.delegation;

import dev.switchboard.core.engine.Delegation;
import dev.switchboard.core.json.Jsons;
import dev.switchboard.core.notify.Outbox;
import dev.switchboard.core.sql.Statements;
import dev.switchboard.core.lane.LaneEffects;
import dev.switchboard.core.thread.LaneRows;
import dev.switchboard.core.thread.ThreadRepository;
import dev.switchboard.persistence.run.RunKind;
import dev.switchboard.persistence.run.RunRecord;
import dev.switchboard.persistence.run.RunState;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonReader;
import jakarta.json.JsonString;
import java.io.StringReader;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import javax.sql.DataSource;

/**
 * The delegation tree's rows — path registry, call slots, journal — changed in the caller's
 * transaction, beside the lane change they belong to: a dispatch in the caller's finish, a reply in
 * the callee's, a timeout and a cascade in transactions of their own. Every change of a tree locks
 * its root row first (after, at most, the lane of the run that acts), then the caller's lane: one
 * order everywhere, so two transactions of a tree never wait for each other in a circle.
 *
 * <p>A path's lane is a thread of its own, owned by {@link #PATHS_USER} (no user can name it) and
 * keyed by the path's UUID, holding one run: the call. A caller that waits keeps its run executing
 * but lets its lane's lease go to {@link #PARKED} until the last reply is in; then the run is queued
 * again and its next attempt finds every reply ({@link #context}).
 */
@ApplicationScoped
public class PathLedger {

    /** The owner of every path's lane: a key no authenticated user can have. */
    public static final String PATHS_USER = "~agents";
    /** The lease owner of a lane whose run waits for replies: no instance holds it, none may claim it. */
    public static final String PARKED = "~awaiting-replies";
    /** A parked lease's end: never, by any clock (year 9999). */
    public static final long PARKED_UNTIL = 253_402_300_799_999L;
    /** The source of a path's run, before the name of the agent it calls. */
    public static final String SOURCE = "delegation:";
    /** The {@code from} of a reply no listener gave (a routing or depth refusal). */
    public static final String SYSTEM = "system";

    static final String PATH_COLUMNS = "uuid, session_root, root_uuid, root_run_id, user_key, thread_key,"
            + " segments, depth, parent_uuid, agent, caller, thread_id, run_id, status, hops, result_text, created_at,"
            + " closed_at";
    private static final String INSERT_PATH = "INSERT INTO path_registry (" + PATH_COLUMNS
            + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
    private static final String HANDLER_OF_RUN = "SELECT " + PATH_COLUMNS
            + " FROM path_registry WHERE run_id = ? AND depth > 0";
    private static final String LOCK_ROOT = "SELECT " + PATH_COLUMNS + " FROM path_registry WHERE uuid = ? FOR UPDATE";
    private static final String PATH = "SELECT " + PATH_COLUMNS + " FROM path_registry WHERE uuid = ?";
    private static final String LIVE_CHILDREN = "SELECT " + PATH_COLUMNS
            + " FROM path_registry WHERE parent_uuid = ? AND status = 'live'";
    private static final String CLOSE_PATH = "UPDATE path_registry SET status = ?, result_text = ?, closed_at = ?"
            + " WHERE uuid = ? AND status = 'live'";
    private static final String KEEP_STATE = "UPDATE path_registry SET state = ? WHERE uuid = ?";
    private static final String ADD_HOPS = "UPDATE path_registry SET hops = hops + ? WHERE uuid = ?";
    private static final String CLOSE_ROOT = "UPDATE path_registry SET status = ?, closed_at = ?"
            + " WHERE root_run_id = ? AND depth < 2 AND status = 'live'";
    private static final String ORPHANS = "SELECT p.uuid, r.state, r.error_code FROM path_registry p"
            + " JOIN runs r ON r.run_id = p.run_id WHERE p.status = 'live' AND r.state IN ('succeeded', 'failed')"
            + " FETCH FIRST 100 ROWS ONLY";
    private static final String PARKED_LANE = "SELECT id FROM threads WHERE id = ? AND lease_owner = '" + PARKED + "'";
    private static final String SET_LANE = "UPDATE threads SET next_seq = 2, engine = ? WHERE id = ?";

    private static final String SLOT_COLUMNS = "caller_run_id, slot, call_index, caller_uuid, caller_thread, root_uuid,"
            + " to_name, child_uuid, from_name, status, code, result_text, deadline_at, created_at, replied_at";
    private static final String INSERT_SLOT = "INSERT INTO path_calls (" + SLOT_COLUMNS
            + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
    static final String SLOTS_OF = "SELECT " + SLOT_COLUMNS + " FROM path_calls WHERE caller_run_id = ? ORDER BY slot";
    private static final String SLOT_OF_CHILD = "SELECT " + SLOT_COLUMNS + " FROM path_calls WHERE child_uuid = ?";
    private static final String SLOT = "SELECT " + SLOT_COLUMNS + " FROM path_calls WHERE caller_run_id = ? AND slot = ?";
    private static final String ANSWER_SLOT = "UPDATE path_calls SET status = ?, from_name = ?, code = ?, result_text = ?,"
            + " replied_at = ? WHERE caller_run_id = ? AND slot = ? AND status = 'pending'";
    private static final String DROP_PENDING = "UPDATE path_calls SET status = 'error', code = 'cancelled',"
            + " result_text = 'The caller''s path was closed.', replied_at = ? WHERE caller_run_id = ? AND caller_uuid = ?"
            + " AND status = 'pending'";
    private static final String PENDING = "SELECT count(*) FROM path_calls WHERE caller_run_id = ? AND status = 'pending'";
    private static final String OVERDUE = "SELECT caller_run_id, slot FROM path_calls WHERE status = 'pending'"
            + " AND deadline_at < ? ORDER BY deadline_at FETCH FIRST 100 ROWS ONLY";
    private static final String JOURNAL = "INSERT INTO path_journal (msg_id, session_root, uuid, segments, from_name,"
            + " to_name, payload_type, status, reason, ts) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";

    /** A path as the registry holds it; {@code segments} root first. */
    public record PathRow(String uuid, String sessionRoot, String rootUuid, String rootRunId, String userKey,
            String threadKey, List<String> segments, int depth, String parentUuid, String agent, String caller,
            long threadId, String runId, String status, int hops, String resultText, long createdAt, Long closedAt) {

        public boolean isLive() {
            return "live".equals(status);
        }

        public String readable() {
            return PathNames.readable(segments);
        }
    }

    /** One call slot: what a caller run waits for, or the reply it got. */
    public record SlotRow(String callerRunId, int slot, int callIndex, String callerUuid, long callerThread,
            String rootUuid, String to, String childUuid, String from, String status, String code, String text,
            Long deadlineAt, long createdAt, Long repliedAt) {

        public boolean isPending() {
            return "pending".equals(status);
        }
    }

    /**
     * A dispatch's effects, and whether the caller now waits for replies; {@code refusal}: why
     * nothing was dispatched and the run ends failed instead (null when it was dispatched).
     */
    public record Dispatch(LaneEffects effects, boolean waits, String refusal) {
    }

    /** The error of a call whose path closed (it timed out) before the calls it asked for could be made. */
    public static final String CLOSED = "the call's path was closed (timed out) before its own calls were made";
    /** The error of an execution that asked only for calls already answered (it would loop forever). */
    public static final String REPEATED = "the engine asked again for calls already answered";

    @Resource(lookup = "jdbc/switchboard")
    DataSource dataSource;

    @Inject
    ThreadRepository repository;

    @Inject
    LaneRows rows;

    @Inject
    Outbox outbox;

    @Inject
    DelegationSettings settings;

    private Statements statements;

    @PostConstruct
    void init() {
        statements = new Statements(dataSource);
    }

    /** True for a run of a path's lane (a delegated call), by what its lane read. */
    public static boolean isPathRun(String userKey) {
        return PATHS_USER.equals(userKey);
    }

    /** The agent a path's run calls, by its source; null for any other run. */
    public static String agentOf(String source) {
        return source != null && source.startsWith(SOURCE) ? source.substring(SOURCE.length()) : null;
    }

    /** True for an output that asks for calls (cheap: the engines build it with its type first). */
    public static boolean asksForCalls(String outputJson) {
        return outputJson != null && outputJson.startsWith("{\"type\":\"" + Delegation.CALLS + "\"");
    }

    /** True for an output that answers nothing ({@link Delegation#nothing()}). */
    public static boolean answersNothing(String outputJson) {
        return outputJson != null && outputJson.startsWith("{\"type\":\"" + Delegation.NOTHING + "\"");
    }

    // --- dispatch ---

    /**
     * Dispatches the calls {@code run}'s execution asked for, in the transaction that ends that
     * execution (its lane locked): the tree's root and entry path are minted at its first call;
     * calls already dispatched by an earlier attempt are not dispatched again.
     */
    public Dispatch dispatch(LaneRows.LaneRun run, List<Delegation.Call> calls, JsonObject state, long now) {
        PathRow caller = handlerOf(run.runId()).orElse(null);
        if (caller == null) {
            if (isPathRun(run.userKey())) {
                throw new IllegalStateException("run " + run.runId() + " runs on a path lane that has no path");
            }
            caller = mintTree(run, now);
        }
        PathRow root = lockRoot(caller.rootUuid());
        if (!caller.isLive()) {
            return new Dispatch(LaneEffects.NONE, false, CLOSED);
        }
        String handler = caller.uuid();
        statements.updateOne(KEEP_STATE, s -> {
            s.setString(1, state == null ? null : state.toString());
            s.setString(2, handler);
        }, "keeping the state of path " + handler);
        List<SlotRow> slots = slotsOf(run.runId());
        Set<Integer> done = slots.stream().map(SlotRow::callIndex).collect(Collectors.toSet());
        List<Delegation.Call> fresh = calls.stream().filter(c -> !done.contains(c.index())).toList();
        if (fresh.isEmpty() && pending(run.runId()) == 0) {
            return new Dispatch(LaneEffects.NONE, false, REPEATED);
        }
        int nextSlot = slots.stream().mapToInt(SlotRow::slot).max().orElse(-1) + 1;
        Set<String> live = liveChildren(caller.uuid()).stream().map(p -> p.segments().get(p.segments().size() - 1))
                .collect(Collectors.toSet());
        DelegationRules.Routing routing = settings.rules().route(caller.agent(), caller.segments(), fresh, root.hops(), live);
        List<Long> lanes = new ArrayList<>();
        for (DelegationRules.Slot slot : routing.slots()) {
            int number = nextSlot++;
            if (slot.dispatched()) {
                lanes.add(dispatchOne(root, caller, run, slot, number, now));
            } else {
                insertSlot(new SlotRow(run.runId(), number, slot.call(), caller.uuid(), run.threadId(), root.uuid(),
                        clip(slot.to()), null, SYSTEM, "error", slot.code(), slot.message(), null, now, now));
                journal(root, caller.uuid(), caller.segments(), caller.agent(), slot.to(), "SystemError", "Failed",
                        slot.code(), now);
                notify(root, "refused", caller.uuid(), null, caller.agent(), clip(slot.to()), slot.code());
            }
        }
        statements.update(ADD_HOPS, s -> {
            s.setInt(1, routing.hops() - root.hops());
            s.setString(2, root.uuid());
        }, "counting the hops of tree " + root.sessionRoot());
        return new Dispatch(new LaneEffects(lanes, List.of()), pending(run.runId()) > 0, null);
    }

    private long dispatchOne(PathRow root, PathRow caller, LaneRows.LaneRun run, DelegationRules.Slot slot, int number,
            long now) {
        String uuid = UUID.randomUUID().toString();
        List<String> segments = new ArrayList<>(caller.segments());
        segments.add(slot.segment());
        Agent agent = settings.agents().byName(slot.listener()).orElseThrow();
        long threadId = repository.create(PATHS_USER, uuid, now).getId();
        statements.updateOne(SET_LANE, s -> {
            s.setString(1, agent.engine());
            s.setLong(2, threadId);
        }, "setting up the lane of path " + uuid);
        String runId = UUID.randomUUID().toString();
        rows.insert(new RunRecord(runId, threadId, 1, PATHS_USER, uuid, SOURCE + slot.listener(), RunKind.DELEGATED, null, "followUp", slot.input(), uuid,
                now));
        insertPath(new PathRow(uuid, root.sessionRoot(), root.uuid(), root.rootRunId(), root.userKey(), root.threadKey(),
                segments, segments.size() - 1, caller.uuid(), slot.listener(), caller.agent(), threadId, runId, "live", 0,
                null, now, null));
        insertSlot(new SlotRow(run.runId(), number, slot.call(), caller.uuid(), run.threadId(), root.uuid(),
                clip(slot.to()), uuid, null, "pending", null, null, now + settings.timeoutMs(slot.listener()), now, null));
        journal(root, uuid, segments, null, null, "Path", "Minted", null, now);
        journal(root, uuid, segments, caller.agent(), slot.listener(), "Call", "Dispatched", null, now);
        notify(root, "dispatched", uuid, caller.uuid(), caller.agent(), slot.listener(), null);
        return threadId;
    }

    /** The root and entry path of the tree {@code run} (an outer unit of work) starts with its first call. */
    private PathRow mintTree(LaneRows.LaneRun run, long now) {
        String session = PathNames.newRoot();
        String rootUuid = UUID.randomUUID().toString();
        PathRow root = new PathRow(rootUuid, session, rootUuid, run.runId(), run.userKey(), run.threadKey(),
                List.of(session), 0, null, session, null, run.threadId(), run.runId(), "live", 0, null, now, null);
        PathRow entry = new PathRow(UUID.randomUUID().toString(), session, rootUuid, run.runId(), run.userKey(),
                run.threadKey(), List.of(session, settings.entry()), 1, rootUuid, settings.entry(), null, run.threadId(),
                run.runId(), "live", 0, null, now, null);
        insertPath(root);
        insertPath(entry);
        journal(root, root.uuid(), root.segments(), null, null, "Path", "Minted", null, now);
        journal(root, entry.uuid(), entry.segments(), null, null, "Path", "Minted", null, now);
        return entry;
    }

    // --- replies ---

    /**
     * {@code run}, a path's call, ended as {@code end}: its reply (the answer, an {@code ack} for
     * nothing, a handler error for a failure) goes to the caller, on the caller's path, with
     * {@code from} = the path's agent; the path and whatever still lives below it close. When the
     * path was closed already (timed out, cancelled) the reply is dropped and journalled.
     */
    public LaneEffects replied(LaneRows.LaneRun run, LaneRows.RunEnd end, long now) {
        PathRow path = handlerOf(run.runId()).orElse(null);
        if (path == null || path.depth() < 2) {
            return LaneEffects.NONE;
        }
        PathRow root = lockRoot(path.rootUuid());
        PathEnds.CallEnd ended = PathEnds.ofCall(end.state(), end.outputJson(), end.errorMessage());
        SlotRow slot = slotOfChild(path.uuid()).orElse(null);
        LaneRows.Lane callerLane = null;
        if (slot != null && slot.isPending()) {
            callerLane = rows.lock(slot.callerThread());
            slot = callerLane == null ? null : slot(slot.callerRunId(), slot.slot()).orElse(null); // read again under its lock
        }
        if (slot == null || !slot.isPending()) {
            journal(root, path.uuid(), path.segments(), path.agent(), path.caller(), "Reply", "late_reply_dropped",
                    "the path was closed (" + path.status() + ")", now);
            notify(root, "late_reply_dropped", path.uuid(), path.parentUuid(), path.agent(), path.caller(), null);
            return close(path, ended.pathStatus(), ended.kept(), now, false);
        }
        SlotRow answered = slot;
        statements.updateOne(ANSWER_SLOT, s -> {
            s.setString(1, ended.status());
            s.setString(2, path.agent());
            s.setString(3, ended.code());
            s.setString(4, ended.text());
            s.setLong(5, now);
            s.setString(6, answered.callerRunId());
            s.setInt(7, answered.slot());
        }, "answering call slot " + slot.slot() + " of run " + slot.callerRunId());
        LaneEffects effects = close(path, ended.pathStatus(), ended.kept(), now, false);
        statements.update(ADD_HOPS, s -> {
            s.setInt(1, 1);
            s.setString(2, root.uuid());
        }, "counting the hops of tree " + root.sessionRoot());
        journal(root, path.uuid(), path.segments(), path.agent(), path.caller(),
                ended.isError() ? "SystemError" : "Reply", ended.isError() ? "Failed" : "Delivered", ended.code(), now);
        notify(root, ended.isError() ? "failed" : "replied", path.uuid(), path.parentUuid(), path.agent(), path.caller(),
                ended.code());
        return effects.plus(resumeIfAnswered(callerLane, slot.callerRunId(), now));
    }

    /** Queues the caller's run again when nothing it waits for is pending: its lane is no longer parked. */
    private LaneEffects resumeIfAnswered(LaneRows.Lane callerLane, String callerRunId, long now) {
        if (pending(callerRunId) > 0 || !PARKED.equals(callerLane.leaseOwner())
                || !callerRunId.equals(callerLane.leaseRunId())) {
            return LaneEffects.NONE;
        }
        rows.requeue(callerRunId, callerLane.leaseAttempt(), now);
        rows.write(callerLane.released());
        return new LaneEffects(List.of(callerLane.threadId()), List.of());
    }

    // --- timeouts, cascades, final answers ---

    /** Call slots past their deadline, as (caller run, slot) pairs; read without a lock. */
    public List<SlotRow> overdue(long now) {
        return statements.query(OVERDUE, s -> s.setLong(1, now), rs -> new SlotRow(rs.getString(1), rs.getInt(2), 0,
                null, 0, null, null, null, null, null, null, null, null, 0, null), "reading overdue calls");
    }

    /**
     * The call slot timed out, in a transaction of its own: the caller gets one {@code timeout}
     * SystemError from the callee (exactly once: the slot is answered only while pending), the
     * callee's path closes ({@code timed_out}) with everything below it. A callee still executing
     * goes on (its reply will be dropped as late, and it can make no more calls); one waiting for
     * replies of its own has its lane cancelled after the commit.
     */
    public LaneEffects expire(String callerRunId, int slotNumber, long now) {
        SlotRow seen = slot(callerRunId, slotNumber).orElse(null);
        if (seen == null || !seen.isPending()) {
            return LaneEffects.NONE;
        }
        PathRow root = lockRoot(seen.rootUuid());
        LaneRows.Lane callerLane = rows.lock(seen.callerThread());
        SlotRow slot = slot(callerRunId, slotNumber).orElse(null);
        if (slot == null || !slot.isPending() || slot.deadlineAt() == null || slot.deadlineAt() >= now) {
            return LaneEffects.NONE;
        }
        PathRow callee = slot.childUuid() == null ? null : path(slot.childUuid()).orElse(null);
        String from = callee == null ? SYSTEM : callee.agent();
        statements.updateOne(ANSWER_SLOT, s -> {
            s.setString(1, "error");
            s.setString(2, from);
            s.setString(3, "timeout");
            s.setString(4, "No reply in time; retry allowed.");
            s.setLong(5, now);
            s.setString(6, callerRunId);
            s.setInt(7, slotNumber);
        }, "timing out call slot " + slotNumber + " of run " + callerRunId);
        LaneEffects effects = LaneEffects.NONE;
        if (callee != null) {
            effects = close(callee, "timed_out", null, now, isParked(callee.threadId()));
            journal(root, callee.uuid(), callee.segments(), callee.agent(), callee.caller(), "SystemError", "Failed",
                    "timeout", now);
            notify(root, "timed_out", callee.uuid(), callee.parentUuid(), callee.agent(), callee.caller(), "timeout");
        }
        return effects.plus(resumeIfAnswered(callerLane, callerRunId, now));
    }

    /**
     * Live paths whose run has ended without closing them: the handlers of a cancelled or
     * interrupted unit of work or call (whatever cancelled it), the roots of finished units. Read
     * without a lock; {@link #closeOrphan} closes each.
     */
    public List<Orphan> orphans() {
        return statements.query(ORPHANS, s -> { }, rs -> new Orphan(rs.getString(1),
                PathEnds.ofUnit(RunState.fromWire(rs.getString(2)), rs.getString(3))), "reading orphaned paths");
    }

    /** A live path whose run ended, and the status a root closes with: completed, cancelled or failed as its run ended. */
    public record Orphan(String uuid, String ended) {
    }

    /**
     * Closes the orphaned path {@code uuid} (its run ended) and everything live below it: a tree's
     * root as its unit of work {@code ended}, a call's path — and every path below — as cancelled.
     */
    public LaneEffects closeOrphan(String uuid, String ended, long now) {
        PathRow path = path(uuid).orElse(null);
        if (path == null || !path.isLive()) {
            return LaneEffects.NONE;
        }
        PathRow root = lockRoot(path.rootUuid());
        PathRow again = path(uuid).orElse(null);
        if (again == null || !again.isLive()) {
            return LaneEffects.NONE;
        }
        journal(root, path.uuid(), path.segments(), null, null, "Path", "Closed", "its run ended", now);
        return close(again, path.depth() >= 2 ? "cancelled" : ended, null, now, false);
    }

    /** The outer unit of work {@code runId} ended: its tree's root and entry path close (a final answer, or not). */
    public void rootEnded(String runId, LaneRows.RunEnd end, long now) {
        statements.update(CLOSE_ROOT, s -> {
            s.setString(1, PathEnds.ofUnit(end.state(), end.errorCode()));
            s.setLong(2, now);
            s.setString(3, runId);
        }, "closing the tree of run " + runId);
    }

    /**
     * Closes {@code path} as {@code status} and cancels what lives below it: live children are
     * closed {@code cancelled} and their lanes returned for cancelling (which closes theirs in turn);
     * with {@code cancelOwn}, the path's own lane too (its run has not ended).
     */
    private LaneEffects close(PathRow path, String status, String resultText, long now, boolean cancelOwn) {
        statements.update(CLOSE_PATH, s -> {
            s.setString(1, status);
            s.setString(2, resultText);
            s.setLong(3, now);
            s.setString(4, path.uuid());
        }, "closing path " + path.uuid());
        // What the path's run still waited for is moot: no timeout will be sent for it.
        statements.update(DROP_PENDING, s -> {
            s.setLong(1, now);
            s.setString(2, path.runId());
            s.setString(3, path.uuid());
        }, "dropping the calls path " + path.uuid() + " waited for");
        List<Long> cancel = new ArrayList<>();
        if (cancelOwn && path.depth() >= 2) {
            cancel.add(path.threadId());
        }
        for (PathRow child : liveChildren(path.uuid())) {
            cancel.addAll(close(child, "cancelled", null, now, true).cancel());
        }
        return new LaneEffects(List.of(), List.copyOf(new LinkedHashSet<>(cancel)));
    }

    // --- reads ---

    private List<SlotRow> slotsOf(String runId) {
        return statements.query(SLOTS_OF, s -> s.setString(1, runId), PathLedger::slotRow, "reading call slots");
    }

    private Optional<PathRow> handlerOf(String runId) {
        return first(statements.query(HANDLER_OF_RUN, s -> s.setString(1, runId), PathLedger::pathRow,
                "reading the path of run " + runId));
    }

    private Optional<PathRow> path(String uuid) {
        return first(statements.query(PATH, s -> s.setString(1, uuid), PathLedger::pathRow, "reading path " + uuid));
    }

    private PathRow lockRoot(String rootUuid) {
        return first(statements.query(LOCK_ROOT, s -> s.setString(1, rootUuid), PathLedger::pathRow,
                "locking tree " + rootUuid)).orElseThrow(() -> new IllegalStateException("no tree root " + rootUuid));
    }

    private List<PathRow> liveChildren(String uuid) {
        return statements.query(LIVE_CHILDREN, s -> s.setString(1, uuid), PathLedger::pathRow,
                "reading the live children of " + uuid);
    }

    private Optional<SlotRow> slotOfChild(String childUuid) {
        return first(statements.query(SLOT_OF_CHILD, s -> s.setString(1, childUuid), PathLedger::slotRow,
                "reading the call of path " + childUuid));
    }

    private Optional<SlotRow> slot(String callerRunId, int slot) {
        return first(statements.query(SLOT, s -> {
            s.setString(1, callerRunId);
            s.setInt(2, slot);
        }, PathLedger::slotRow, "reading call slot " + slot + " of run " + callerRunId));
    }

    /** Whether the lane waits for replies, read without its lock (its owner's finish may be racing this). */
    private boolean isParked(long threadId) {
        return !statements.query(PARKED_LANE, s -> s.setLong(1, threadId), rs -> rs.getLong(1), "reading lane " + threadId)
                .isEmpty();
    }

    private int pending(String callerRunId) {
        return statements.query(PENDING, s -> s.setString(1, callerRunId), rs -> rs.getInt(1), "counting pending calls")
                .get(0);
    }

    // --- writes ---

    private void insertPath(PathRow p) {
        statements.updateOne(INSERT_PATH, s -> {
            s.setString(1, p.uuid());
            s.setString(2, p.sessionRoot());
            s.setString(3, p.rootUuid());
            s.setString(4, p.rootRunId());
            s.setString(5, p.userKey());
            s.setString(6, p.threadKey());
            s.setString(7, segmentsJson(p.segments()));
            s.setInt(8, p.depth());
            s.setString(9, p.parentUuid());
            s.setString(10, p.agent());
            s.setString(11, p.caller());
            s.setLong(12, p.threadId());
            s.setString(13, p.runId());
            s.setString(14, p.status());
            s.setInt(15, p.hops());
            s.setString(16, p.resultText());
            s.setLong(17, p.createdAt());
            Statements.setLong(s, 18, p.closedAt());
        }, "registering path " + p.uuid());
    }

    private void insertSlot(SlotRow r) {
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

    private void journal(PathRow root, String uuid, List<String> segments, String from, String to, String payloadType,
            String status, String reason, long now) {
        statements.updateOne(JOURNAL, s -> {
            s.setString(1, UUID.randomUUID().toString());
            s.setString(2, root.sessionRoot());
            s.setString(3, uuid);
            s.setString(4, segmentsJson(segments));
            s.setString(5, from);
            s.setString(6, to == null ? null : clip(to));
            s.setString(7, payloadType);
            s.setString(8, status);
            s.setString(9, reason);
            s.setLong(10, now);
        }, "journalling " + status + " on path " + uuid);
    }

    /** A hop on the outer thread's stream: opaque ids and listener names, never a readable path. */
    private void notify(PathRow root, String kind, String pathId, String parentId, String from, String to, String code) {
        JsonObjectBuilder params = Jsons.createObjectBuilder().add("run_id", root.rootRunId()).add("kind", kind)
                .add("path_id", pathId).add("thread_key", root.threadKey());
        if (parentId != null) {
            params.add("parent_path_id", parentId);
        }
        if (from != null) {
            params.add("from", from);
        }
        if (to != null) {
            params.add("to", to);
        }
        if (code != null) {
            params.add("code", code);
        }
        outbox.append(root.userKey(), root.threadKey(), "delegation/hop", params.build());
    }

    // --- rows ---

    static PathRow pathRow(ResultSet rs) throws SQLException {
        return new PathRow(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4), rs.getString(5),
                rs.getString(6), segmentsOf(rs.getString(7)), rs.getInt(8), rs.getString(9), rs.getString(10),
                rs.getString(11), rs.getLong(12), rs.getString(13), rs.getString(14), rs.getInt(15), rs.getString(16),
                rs.getLong(17), Statements.getLong(rs, 18));
    }

    static SlotRow slotRow(ResultSet rs) throws SQLException {
        return new SlotRow(rs.getString(1), rs.getInt(2), rs.getInt(3), rs.getString(4), rs.getLong(5), rs.getString(6),
                rs.getString(7), rs.getString(8), rs.getString(9), rs.getString(10), rs.getString(11), rs.getString(12),
                Statements.getLong(rs, 13), rs.getLong(14), Statements.getLong(rs, 15));
    }

    static String segmentsJson(List<String> segments) {
        JsonArrayBuilder array = Jsons.createArrayBuilder();
        segments.forEach(array::add);
        return array.build().toString();
    }

    static List<String> segmentsOf(String json) {
        try (JsonReader reader = Jsons.createReader(new StringReader(json))) {
            return reader.readArray().getValuesAs(JsonString.class).stream().map(JsonString::getString).toList();
        }
    }

    private static String clip(String name) {
        return name.length() <= 256 ? name : name.substring(0, 256);
    }

    private static <T> Optional<T> first(List<T> list) {
        return list.isEmpty() ? Optional.empty() : Optional.of(list.get(0));
    }

}
