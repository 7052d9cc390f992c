package dev.switchboard.core.execution;

import dev.switchboard.core.lane.LanePayload;
import dev.switchboard.core.lane.PayloadColumns;
import dev.switchboard.core.lane.RunKey;
import dev.switchboard.core.lane.RunPayload;
import dev.switchboard.core.thread.ThreadRuntime;
import dev.switchboard.persistence.run.RunKind;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.stream.Stream;

/**
 * Where a run's {@link RunContent} and a thread's {@link ThreadChoice} sit beside the lane's
 * columns: the lane reads and writes them in its own statements through this, so a claim reads a
 * run with its turn (joined) and a lane with its thread's runtime in one statement each.
 */
@ApplicationScoped
public class RunColumns implements PayloadColumns {

    /** The turn a run belongs to (null without one): the key a turn's runs are read by. */
    public static final RunKey TURN = new RunKey("turn_id");
    /** What a run is ({@link RunKind}'s wire name): the key retention ages runs by. */
    public static final RunKey KIND = new RunKey("kind");

    private static final List<String> RUN = List.of("r.user_key", "r.thread_key", "r.source", "r.kind",
            "r.external_user_key", "r.delivery_mode", "r.input_text", "r.input_json", "r.turn_id", "r.payload_hash",
            "t.state", "t.started_at", "t.merged_into", TURN.countSharing());
    private static final List<String> NEW_RUN = List.of("user_key", "thread_key", "source", "kind", "external_user_key",
            "delivery_mode", "input_text", "input_json", "turn_id", "payload_hash");
    /* The thread's own row, read beside the lane's and not locked by the lane's lock (ThreadRuntimes locks it to change it). */
    private static final List<String> LANE = Stream.of("engine", "model_id", "thinking_level", "workspace_head")
            .map(c -> "(SELECT " + c + " FROM threads t WHERE t.id = l.thread_id)").toList();

    @Override
    public List<String> runColumns() {
        return RUN;
    }

    @Override
    public String runJoins() {
        return " LEFT JOIN turns t ON t.turn_id = r.turn_id";
    }

    @Override
    public RunPayload readRun(ResultSet rs, int first) throws SQLException {
        int i = first;
        return new RunContent(rs.getString(i), rs.getString(i + 1), rs.getString(i + 2),
                RunKind.fromWire(rs.getString(i + 3)), rs.getString(i + 4), rs.getString(i + 5), rs.getString(i + 6),
                rs.getString(i + 7), rs.getString(i + 8), rs.getString(i + 9),
                new RunContent.TurnAsRead("active".equals(rs.getString(i + 10)), rs.getLong(i + 11), rs.getString(i + 12),
                        rs.getInt(i + 13)));
    }

    @Override
    public List<String> newRunColumns() {
        return NEW_RUN;
    }

    @Override
    public void bindNew(PreparedStatement s, int first, RunPayload payload) throws SQLException {
        RunContent run = (RunContent) payload;
        s.setString(first, run.userKey());
        s.setString(first + 1, run.threadKey());
        s.setString(first + 2, run.source());
        s.setString(first + 3, run.kind().wire());
        s.setString(first + 4, run.externalUserKey());
        s.setString(first + 5, run.deliveryMode());
        s.setString(first + 6, run.inputText());
        s.setString(first + 7, run.inputJson());
        s.setString(first + 8, run.turnId());
        s.setString(first + 9, run.payloadHash());
    }

    @Override
    public RunPayload added(RunPayload payload, long createdAt) {
        return ((RunContent) payload).added(createdAt);
    }

    @Override
    public List<String> blankContent() {
        return List.of("input_text = ''", "input_json = NULL");
    }

    @Override
    public List<String> laneColumns() {
        return LANE;
    }

    @Override
    public LanePayload readLane(ResultSet rs, int first) throws SQLException {
        String engine = rs.getString(first);
        String model = rs.getString(first + 1);
        String thinking = rs.getString(first + 2);
        String workspace = rs.getString(first + 3);
        return new ThreadChoice(engine == null && model == null && thinking == null && workspace == null
                ? ThreadRuntime.DEFAULT : new ThreadRuntime(engine, model, thinking, workspace));
    }
}
