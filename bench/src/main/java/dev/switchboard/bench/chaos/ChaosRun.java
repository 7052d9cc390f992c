package dev.switchboard.bench.chaos;

import dev.switchboard.testkit.EngineTrace;
import dev.switchboard.testkit.PgFaultProxy;
import dev.switchboard.testkit.ServerInstance;
import dev.switchboard.testkit.ThrowawayPostgres;
import dev.switchboard.testkit.Trees;
import jakarta.json.Json;
import jakarta.json.JsonObjectBuilder;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The chaos run ({@code scripts/chaos.sh}): instances on one PostgreSQL server of the run's own,
 * reached through a fault proxy, under mixed load with WebSocket subscribers that resume, while
 * instances are killed (kill -9) and restarted, frozen (SIGSTOP) past their lease and let go on,
 * database connections are cut, and PostgreSQL itself is restarted once. Then it checks what must
 * hold and exits non-zero when anything does not: no acknowledged message lost, no run completed
 * twice, no two engine executions of a thread at work at once, every run terminal within 30 s of
 * the last fault, every subscriber's notifications equal to the log with no gap and no duplicate,
 * and every lane run in FIFO order.
 */
public final class ChaosRun {

    private static final int PG_PORT = 5498;
    private static final int FIRST_PORT = 9301;
    private static final long LEASE_MS = 3_000;

    private enum State { UP, DOWN, FROZEN }

    private final Path root;
    private final Path work;
    private final int instanceCount;
    private final int messages;
    private final int threads;
    private final long loadMs;
    private final List<ServerInstance> instances = new ArrayList<>();
    private final Map<String, State> states = new ConcurrentHashMap<>();
    private final Map<String, Integer> faults = new ConcurrentHashMap<>();
    private final Random random = new Random(42);
    private final ExecutorService background = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "chaos-background");
        t.setDaemon(true);
        return t;
    });
    private ThrowawayPostgres postgres;
    private PgFaultProxy proxy;
    private volatile long lastFaultNanos;

    private ChaosRun(Path root, int instanceCount, int messages, int threads, long loadMs) {
        this.root = root;
        this.work = root.resolve("target/chaos");
        this.instanceCount = instanceCount;
        this.messages = messages;
        this.threads = threads;
        this.loadMs = loadMs;
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> options = new LinkedHashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            options.put(args[i], args[i + 1]);
        }
        Path root = Path.of(options.getOrDefault("--root", ".")).toAbsolutePath().normalize();
        ChaosRun run = new ChaosRun(root, Integer.parseInt(options.getOrDefault("--instances", "3")),
                Integer.parseInt(options.getOrDefault("--messages", "1000")),
                Integer.parseInt(options.getOrDefault("--threads", "40")),
                Long.parseLong(options.getOrDefault("--load-seconds", "150")) * 1_000);
        boolean ok;
        try {
            ok = run.run();
        } finally {
            run.tearDown();
        }
        System.exit(ok ? 0 : 1);
    }

    private boolean run() throws Exception {
        long began = System.nanoTime();
        Trees.delete(work);
        Files.createDirectories(work.resolve("journals"));
        say("PostgreSQL of the run's own on port " + PG_PORT + ", behind a fault proxy");
        postgres = new ThrowawayPostgres(PG_PORT, work);
        postgres.createDatabase("switchboard");
        proxy = new PgFaultProxy(0, "127.0.0.1", PG_PORT).start();
        for (int i = 1; i <= instanceCount; i++) {
            String name = "chaos-" + i;
            Map<String, String> env = new LinkedHashMap<>();
            env.put("DB_URL", "jdbc:postgresql://127.0.0.1:" + proxy.port() + "/switchboard?sslmode=disable");
            env.put("DB_USER", "postgres");
            env.put("DB_PASSWORD", "unused");
            env.put("SWITCHBOARD_INSTANCE_ID", name);
            env.put("SWITCHBOARD_ENGINE", "scripted");
            env.put("SWITCHBOARD_ENGINE_SCRIPTED_JOURNAL", work.resolve("journals/" + name + ".jsonl").toString());
            env.put("SWITCHBOARD_LANES_LEASE_MS", Long.toString(LEASE_MS));
            env.put("SWITCHBOARD_LANES_HEARTBEAT_MS", "500");
            env.put("SWITCHBOARD_LANES_POLL_MS", "250");
            env.put("SWITCHBOARD_LANES_SHUTDOWN_GRACE_MS", "1000");
            instances.add(new ServerInstance(root, name, FIRST_PORT + i - 1, env));
        }
        say("starting " + instanceCount + " instances");
        for (ServerInstance instance : instances) {
            instance.start();
            states.put(instance.name(), State.UP);
        }

        List<ResumingSubscriber> subscribers = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            ResumingSubscriber s = new ResumingSubscriber("subscriber-" + i, this::someLiveInstance);
            s.start();
            subscribers.add(s);
        }
        ChaosLoad load = new ChaosLoad(this::someLiveInstance, messages, threads, loadMs, "chaos-");
        say("load: " + messages + " messages over " + threads + " threads in " + loadMs / 1000 + " s, with faults");
        AtomicBoolean loading = new AtomicBoolean(true);
        Future<?> faulting = background.submit(() -> faults(loading));
        load.run();
        loading.set(false);
        faulting.get();
        say("load done; every instance up again; waiting for the runs to finish");
        lastFaultNanos = Math.max(lastFaultNanos, System.nanoTime());

        long settleDeadline = lastFaultNanos + TimeUnit.SECONDS.toNanos(30);
        long notTerminal;
        while ((notTerminal = count("SELECT count(*) FROM runs WHERE state IN ('queued', 'executing')")) > 0
                && System.nanoTime() < settleDeadline) {
            Thread.sleep(250);
        }
        long logEnd = count("SELECT coalesce(max(seq), 0) FROM notifications");
        long subscribersDeadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (subscribers.stream().anyMatch(s -> s.lastSeq() < logEnd) && System.nanoTime() < subscribersDeadline) {
            Thread.sleep(100);
        }
        subscribers.forEach(ResumingSubscriber::stop);

        return report(load, subscribers, notTerminal, logEnd, (System.nanoTime() - began) / 1_000_000_000);
    }

    /** Faults every few seconds while the load runs; PostgreSQL is restarted once, mid-way. */
    private Void faults(AtomicBoolean loading) throws Exception {
        long start = System.nanoTime();
        boolean postgresRestarted = false;
        List<Future<?>> pending = new ArrayList<>();
        while (loading.get()) {
            Thread.sleep(4_000 + random.nextInt(3_000));
            if (!loading.get()) {
                break;
            }
            long elapsedMs = (System.nanoTime() - start) / 1_000_000;
            if (!postgresRestarted && elapsedMs > loadMs / 2) {
                postgresRestarted = true;
                fault("postgres-restart");
                postgres.stop();
                Thread.sleep(3_000);
                postgres.start();
                continue;
            }
            List<ServerInstance> up = instances.stream().filter(i -> states.get(i.name()) == State.UP).toList();
            int choice = random.nextInt(3);
            if (choice == 2 || up.size() < 2) {
                fault("connection-cut");
                proxy.cutAll();
                continue;
            }
            ServerInstance victim = up.get(random.nextInt(up.size()));
            if (choice == 0) {
                fault("kill-9");
                states.put(victim.name(), State.DOWN);
                victim.kill();
                pending.add(background.submit(() -> {
                    Thread.sleep(2_000);
                    victim.restart();
                    states.put(victim.name(), State.UP);
                    return null;
                }));
            } else {
                fault("sigstop");
                states.put(victim.name(), State.FROZEN);
                victim.pause();
                Thread.sleep(LEASE_MS + 1_500); // past its lease: the others take its runs over
                victim.resume();
                states.put(victim.name(), State.UP);
            }
        }
        for (Future<?> f : pending) {
            f.get();
        }
        return null;
    }

    private void fault(String kind) {
        faults.merge(kind, 1, Integer::sum);
        lastFaultNanos = System.nanoTime();
        say("fault: " + kind);
    }

    private URI someLiveInstance() {
        List<ServerInstance> up = instances.stream().filter(i -> states.get(i.name()) == State.UP).toList();
        List<ServerInstance> from = up.isEmpty() ? instances : up;
        return URI.create(from.get(random.nextInt(from.size())).url());
    }

    private boolean report(ChaosLoad load, List<ResumingSubscriber> subscribers, long notTerminal, long logEnd,
            long seconds) throws Exception {
        List<ChaosLoad.Ack> acks = load.acks();
        long lost = 0;
        for (ChaosLoad.Ack ack : acks) {
            boolean found = ack.runId() != null
                    ? count("SELECT count(*) FROM runs WHERE run_id = ?", ack.runId()) == 1
                    : count("SELECT count(*) FROM runs WHERE turn_id = ?", ack.turnId()) >= 1;
            if (!found) {
                lost++;
            }
        }
        long turnsEndedTwice = count("SELECT count(*) FROM (SELECT params::json->>'turn_id' FROM notifications "
                + "WHERE method IN ('turn/completed', 'turn/interrupted') GROUP BY 1 HAVING count(*) > 1) x");
        EngineTrace trace = EngineTrace.readDir(work.resolve("journals"));
        List<String> overlaps = trace.overlaps();
        long repeated = trace.runsCompletedTwice().size();
        List<Long> log = seqs();
        List<ResumingSubscriber.Figures> figures = subscribers.stream().map(s -> s.figures(log, logEnd)).toList();
        int gaps = figures.stream().mapToInt(ResumingSubscriber.Figures::gaps).sum();
        int duplicates = figures.stream().mapToInt(ResumingSubscriber.Figures::duplicates).sum();
        long fifo = fifoViolations();
        long runs = count("SELECT count(*) FROM runs");
        long failed = count("SELECT count(*) FROM runs WHERE state = 'failed'");
        long crashes = count("SELECT coalesce(sum(crashes), 0) FROM runs");

        System.out.println();
        System.out.println("== chaos run: " + instanceCount + " instances, " + acks.size() + " of " + messages
                + " messages acknowledged (" + load.retries() + " sends repeated after a fault), " + runs + " runs ("
                + failed + " failed), " + crashes + " crashed attempts recovered, " + seconds + " s");
        System.out.println("   faults: " + faults);
        for (ResumingSubscriber.Figures f : figures) {
            System.out.println("   " + f.name() + ": " + f.received() + " notifications, " + f.reconnects()
                    + " resumes, " + f.gaps() + " missing, " + f.duplicates() + " duplicated");
        }
        List<String[]> checks = List.of(
                new String[] {"acknowledged messages lost", Long.toString(lost)},
                new String[] {"messages never acknowledged (given up)", Integer.toString(load.givenUp())},
                new String[] {"turns ended twice (two turn/completed or turn/interrupted)", Long.toString(turnsEndedTwice)},
                new String[] {"overlapping executions per thread (engine journals)", Integer.toString(overlaps.size())},
                new String[] {"runs not terminal 30 s after the last fault", Long.toString(notTerminal)},
                new String[] {"subscriber notifications missing from the union", Integer.toString(gaps)},
                new String[] {"subscriber notifications duplicated", Integer.toString(duplicates)},
                new String[] {"lanes that finished runs out of FIFO order", Long.toString(fifo)});
        boolean ok = true;
        for (String[] check : checks) {
            boolean pass = "0".equals(check[1]);
            ok &= pass;
            System.out.printf("   %-62s %6s  %s%n", check[0], check[1], pass ? "ok" : "FAILED");
        }
        System.out.printf("   %-62s %6d  %s%n", "runs whose engine completed in two attempts (crash between", repeated,
                "at-least-once, allowed");
        System.out.println("     an engine's end and its commit; the second result was the one recorded)");
        overlaps.stream().limit(5).forEach(o -> System.out.println("   overlap: " + o));
        JsonObjectBuilder result = Json.createObjectBuilder().add("label", "chaos").add("ok", ok)
                .add("instances", instanceCount).add("messages", messages).add("acknowledged", acks.size())
                .add("runs", runs).add("failed_runs", failed).add("crashes_recovered", crashes)
                .add("lost", lost).add("turns_ended_twice", turnsEndedTwice).add("overlaps", overlaps.size())
                .add("not_terminal", notTerminal).add("subscriber_gaps", gaps).add("subscriber_duplicates", duplicates)
                .add("fifo_violations", fifo).add("engine_completed_twice", repeated).add("seconds", seconds)
                .add("date", Instant.now().toString());
        faults.forEach((k, v) -> result.add("fault_" + k.replace('-', '_'), v));
        String line = "RESULT " + result.build();
        System.out.println(line);
        Files.writeString(work.resolve("result.json"), line + "\n");
        return ok;
    }

    /** Lanes where a run finished before a run queued ahead of it (by thread_seq) finished. */
    private long fifoViolations() throws SQLException {
        try (Connection c = connect(); PreparedStatement s = c.prepareStatement(
                "SELECT count(*) FROM runs a JOIN runs b ON a.thread_id = b.thread_id AND a.thread_seq < b.thread_seq "
                        + "WHERE a.state = 'succeeded' AND b.state = 'succeeded' AND b.finished_at < a.finished_at");
                ResultSet rs = s.executeQuery()) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private List<Long> seqs() throws SQLException {
        List<Long> seqs = new ArrayList<>();
        try (Connection c = connect(); PreparedStatement s = c.prepareStatement(
                "SELECT seq FROM notifications WHERE user_key = 'local' ORDER BY seq"); ResultSet rs = s.executeQuery()) {
            while (rs.next()) {
                seqs.add(rs.getLong(1));
            }
        }
        return seqs;
    }

    private long count(String sql, String... params) throws SQLException {
        try (Connection c = connect(); PreparedStatement s = c.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                s.setString(i + 1, params[i]);
            }
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    /** Directly, not through the proxy. */
    private Connection connect() throws SQLException {
        return DriverManager.getConnection(postgres.jdbcUrl("switchboard"), "postgres", "unused");
    }

    private void tearDown() {
        for (ServerInstance instance : instances) {
            try {
                if (states.get(instance.name()) == State.FROZEN) {
                    instance.resume();
                }
                instance.stop();
            } catch (RuntimeException e) {
                say("stopping " + instance.name() + " failed: " + e.getMessage());
            }
        }
        if (proxy != null) {
            proxy.close();
        }
        if (postgres != null) {
            try {
                postgres.close();
            } catch (Exception e) {
                say("stopping PostgreSQL failed: " + e.getMessage());
            }
        }
        background.shutdownNow();
    }

    private static void say(String what) {
        System.out.println("== " + what);
    }

}
