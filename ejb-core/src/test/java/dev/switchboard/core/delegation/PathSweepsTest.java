package dev.switchboard.core.delegation;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.switchboard.core.execution.RunColumns;
import dev.switchboard.core.lane.LaneParts;
import dev.switchboard.core.sql.FreshDatabase;
import dev.switchboard.core.sql.LocalTransactions;
import dev.switchboard.core.sql.Statements;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The orphan sweep built outside the container, on PostgreSQL and on the embedded H2: live paths
 * whose run has ended are found — past the first page of live paths — with the status
 * their run's end gives them (completed, cancelled, failed); a live path whose run still executes,
 * and a closed path whose run ended, are not. The runs' ends are the lane's to tell.
 */
@ParameterizedClass
@EnumSource(FreshDatabase.Kind.class)
class PathSweepsTest {

    private final LocalTransactions tx;
    private final Statements statements;
    private final PathSweeps sweeps;
    private final AtomicLong seqs = new AtomicLong();

    PathSweepsTest(FreshDatabase.Kind kind) {
        tx = new LocalTransactions(FreshDatabase.create(kind, "switchboard_path_sweeps"));
        statements = new Statements(tx.dataSource());
        sweeps = new PathSweeps();
        sweeps.paths = new PathRegistry(statements);
        sweeps.lanes = LaneParts.lanes(statements, new RunColumns());
    }

    @Test
    void livePathsWhoseRunEndedAreOrphansWithTheirRunsEndAndNoOthers() {
        Map<String, String> expected = new TreeMap<>();
        tx.run(() -> {
            for (int i = 0; i < PathSweeps.PAGE + 100; i++) { // a page and more of live paths whose runs execute
                path(UUID.randomUUID().toString(), "live", run("executing", null));
            }
            // The orphans sort after every one of them: only the second page of live paths holds them.
            expected.put(path("z1" + UUID.randomUUID().toString().substring(2), "live", run("succeeded", null)), "completed");
            expected.put(path("z2" + UUID.randomUUID().toString().substring(2), "live", run("failed", "interrupted")),
                    "cancelled");
            expected.put(path("z3" + UUID.randomUUID().toString().substring(2), "live", run("failed", "engine_error")),
                    "failed");
            path("z4" + UUID.randomUUID().toString().substring(2), "completed", run("succeeded", null)); // closed already
        });

        List<PathRegistry.Orphan> orphans = tx.inTransaction(sweeps::orphanPaths);

        Map<String, String> found = new TreeMap<>();
        orphans.forEach(o -> found.put(o.uuid(), o.ended()));
        assertEquals(expected, found);
    }

    @Test
    void aSweepClosesAtMostItsShareOfOrphans() {
        tx.run(() -> {
            for (int i = 0; i < PathSweeps.ORPHANS + 5; i++) {
                path(UUID.randomUUID().toString(), "live", run("succeeded", null));
            }
        });
        assertEquals(PathSweeps.ORPHANS, tx.inTransaction(sweeps::orphanPaths).size());
    }

    private String run(String state, String errorCode) {
        String runId = UUID.randomUUID().toString();
        statements.update("INSERT INTO runs (run_id, thread_id, thread_seq, user_key, thread_key, source,"
                + " delivery_mode, state, error_code, input_text, attempt, payload_hash, created_at, updated_at, kind)"
                + " VALUES (?, 1, ?, 'u', 't', 'http', 'followUp', ?, ?, 'hi', 1, 'h', 0, 0, 'delegated')", s -> {
                    s.setString(1, runId);
                    s.setLong(2, seqs.incrementAndGet());
                    s.setString(3, state);
                    s.setString(4, errorCode);
                }, "a test run");
        return runId;
    }

    private String path(String uuid, String status, String runId) {
        new PathRegistry(statements).insert(new PathRegistry.PathRow(uuid, "session", uuid, runId, "u", "t",
                List.of("root"), 1, null, "agent", null, 1, runId, status, 0, null, 0, null));
        return uuid;
    }
}
