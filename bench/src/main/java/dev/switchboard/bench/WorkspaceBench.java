package dev.switchboard.bench;

import dev.switchboard.core.workspace.BubblewrapSandbox;
import dev.switchboard.core.workspace.ChangeSet;
import dev.switchboard.core.workspace.CommandRun;
import dev.switchboard.core.workspace.Sandbox;
import dev.switchboard.core.workspace.UnconfinedSandbox;
import dev.switchboard.core.workspace.Workspaces;
import dev.switchboard.core.workspace.Worktree;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.stream.Stream;

/**
 * Per-turn workspaces (issue 17) without a server or a database: what a turn of a thread that has
 * a workspace adds, on this machine's disk, through the same classes the server uses
 * ({@link Workspaces}, {@link Worktree}; JGit). Under a temporary root it makes a thread's
 * repository of F files (default 1,000: directories of 20 text files of 1–2 KiB, one commit, the
 * thread's head), then, one after another and each after W unmeasured:
 * <ul>
 *   <li><b>set-up + tear-down</b>, N times: {@code open} (the thread's cached checkout moved into a
 *       worktree of the turn's own and brought to the head exactly) and {@code close} (the worktree
 *       taken away, kept as the cache) — the figure, whose p50 must stay under
 *       {@value #TARGET_MS} ms (the exit status says);</li>
 *   <li><b>cold set-up + tear-down</b>, N/10 times (at least 10): the same with no cache — a
 *       thread's first turn on a root, or the turn after an instance died mid-turn: a whole
 *       checkout of the F files (reported, not bounded: it is the disk's cost of writing them);</li>
 *   <li><b>turn</b>, N times: {@code open}, one file changed (not timed: that is the engine's work),
 *       {@code changes} (the files compared with the head, the changed one hashed, a commit on top
 *       of the head and its diff) and {@code close}. Every turn starts from the same head, so each
 *       sample is the same work.</li>
 * </ul>
 * Each turn's change set is checked (one file, {@code M}, a commit whose parent is the head), each
 * turn's worktree must hold the head's text of the file the turn before changed, and each worktree
 * must be gone after {@code close}. The root is removed at the end.
 */
public final class WorkspaceBench {

    /** The bound for the set-up and tear-down of one turn's worktree (p50). */
    static final long TARGET_MS = 200;
    static final int FILES_PER_DIRECTORY = 20;
    static final long THREAD = 1;

    static final String USAGE = """
            usage: WorkspaceBench [--files 1000] [--n 200] [--warm-up 20] [--dir <java.io.tmpdir>] [--label text]
              --files    files in the thread's repository (20 per directory, 1-2 KiB of text each)
              --n        cycles of each kind to measure, one after another
              --warm-up  cycles of each kind run first, not measured
              --dir      the directory the temporary workspace root is made in (removed at the end)
              --label    free text printed with the results""";

    record Options(int files, int n, int warmUp, Path dir, String label) {

        static Options parse(String[] args) {
            Map<String, String> o = Cli.options(args);
            for (String name : o.keySet()) {
                if (!List.of("--files", "--n", "--warm-up", "--dir", "--label").contains(name)) {
                    throw new IllegalArgumentException("unknown option " + name);
                }
            }
            return new Options(Cli.positive("--files", o.getOrDefault("--files", "1000")),
                    Cli.positive("--n", o.getOrDefault("--n", "200")),
                    Integer.parseInt(o.getOrDefault("--warm-up", "20")),
                    Path.of(o.getOrDefault("--dir", System.getProperty("java.io.tmpdir"))),
                    o.getOrDefault("--label", ""));
        }
    }

    /** One cycle's parts in nanoseconds (changes 0 for set-up + tear-down), or what went wrong. */
    private record Sample(long open, long changes, long close, String problem) {

        long total() {
            return open + changes + close;
        }
    }

    private final Options options;
    private final List<String> paths = new ArrayList<>();
    private final Map<String, String> texts = new java.util.HashMap<>();
    private Path threadDir;
    private String lastChanged;
    private Workspaces workspaces;
    private String head;
    private long bytes;
    private int cycle;

    WorkspaceBench(Options options) {
        this.options = options;
    }

    public static void main(String[] args) {
        Cli.main(args, Options::parse, USAGE, o -> new WorkspaceBench(o)::run);
    }

    Cli.Report run() throws Exception {
        Path root = Files.createTempDirectory(Files.createDirectories(options.dir()), "workspace-bench-");
        try {
            workspaces = new Workspaces(root, Optional.empty());
            threadDir = workspaces.threadDir(THREAD);
            seed();
            for (int i = 0; i < options.warmUp(); i++) {
                setUpAndTearDown();
                turn();
            }
            List<Sample> setUps = new ArrayList<>();
            for (int i = 0; i < options.n(); i++) {
                setUps.add(setUpAndTearDown());
            }
            List<Sample> colds = new ArrayList<>();
            for (int i = 0; i < Math.max(10, options.n() / 10); i++) {
                colds.add(coldSetUpAndTearDown());
            }
            List<Sample> turns = new ArrayList<>();
            for (int i = 0; i < options.n(); i++) {
                turns.add(turn());
            }
            long[] sandboxed = commands(new BubblewrapSandbox(Path.of("/usr/bin/bwrap"), 64L << 20));
            long[] unconfined = commands(new UnconfinedSandbox());
            return report(root, setUps, colds, turns, sandboxed, unconfined);
        } finally {
            delete(root);
        }
    }

    /**
     * The cost of one workspace command ({@code ls d00}, 20 names) in {@code sandbox}, n times after
     * the warm-up, in one worktree of the head: sorted nanoseconds from start to exit, output read.
     */
    private long[] commands(Sandbox sandbox) throws IOException {
        try (Worktree tree = workspaces.open(THREAD, head, "commands-" + sandbox.name() + ".1")) {
            long[] took = new long[options.n()];
            for (int i = -options.warmUp(); i < options.n(); i++) {
                long start = System.nanoTime();
                CommandRun.Result listed = tree.run(List.of("ls", "d00"), sandbox, Duration.ofSeconds(10), 65536);
                long spent = System.nanoTime() - start;
                if (listed.exitCode() != 0 || listed.output().lines().count() != FILES_PER_DIRECTORY) {
                    throw new IllegalStateException("ls in the " + sandbox.name() + " sandbox: " + listed.asToolOutput());
                }
                if (i >= 0) {
                    took[i] = spent;
                }
            }
            java.util.Arrays.sort(took);
            return took;
        }
    }

    /** The thread's repository: F files written into a worktree at the start, committed; that commit is the head. */
    private void seed() throws IOException {
        Random random = new Random(17);
        try (Worktree tree = workspaces.open(THREAD, Workspaces.START, "seed.1")) {
            for (int i = 0; i < options.files(); i++) {
                String path = String.format(Locale.ROOT, "d%02d/f%02d.txt", i / FILES_PER_DIRECTORY, i % FILES_PER_DIRECTORY);
                String text = text(random, path, 1024 + random.nextInt(1024));
                Path file = tree.dir().resolve(path);
                Files.createDirectories(file.getParent());
                Files.writeString(file, text, StandardCharsets.UTF_8);
                paths.add(path);
                texts.put(path, text);
                bytes += text.length();
            }
            ChangeSet seeded = tree.changes("Seed: " + options.files() + " files", Instant.now());
            if (!seeded.changed() || seeded.files().size() != options.files()) {
                throw new IllegalStateException("the seed commit holds " + seeded.files().size() + " files, not "
                        + options.files());
            }
            head = seeded.commit();
        }
        try (Worktree tree = workspaces.open(THREAD, head, "check.1"); Stream<Path> files = Files.walk(tree.dir())) {
            long checkedOut = files.filter(Files::isRegularFile).count();
            if (checkedOut != options.files()) {
                throw new IllegalStateException("a checkout of the head holds " + checkedOut + " files, not " + options.files());
            }
        }
    }

    /** Lines of words up to {@code size} characters (ASCII: one byte each). */
    private static String text(Random random, String path, int size) {
        String[] words = {"lane", "thread", "turn", "run", "lease", "commit", "worktree", "engine", "tool", "notify",
            "sequence", "journal", "fence", "claim", "record", "history"};
        StringBuilder text = new StringBuilder(size + 80);
        int line = 1;
        while (text.length() < size) {
            text.append(path).append(':').append(line++).append(':');
            for (int w = 0; w < 8; w++) {
                text.append(' ').append(words[random.nextInt(words.length)]);
            }
            text.append('\n');
        }
        text.setLength(size - 1);
        return text.append('\n').toString();
    }

    /** Set-up and tear-down only: a checkout of the head, then its removal. */
    private Sample setUpAndTearDown() {
        String name = "setup-" + cycle++ + ".1";
        long start = System.nanoTime();
        Worktree tree = workspaces.open(THREAD, head, name);
        long opened = System.nanoTime();
        tree.close();
        long closed = System.nanoTime();
        return new Sample(opened - start, 0, closed - opened, Files.exists(tree.dir()) ? tree.dir() + " left after close" : null);
    }

    /** Set-up and tear-down with no cache: the thread's cached checkout removed first (not timed). */
    private Sample coldSetUpAndTearDown() throws IOException {
        delete(threadDir.resolve("cache"));
        return setUpAndTearDown();
    }

    /** A whole turn: set-up, one file changed (not timed), the turn's change set (its commit), tear-down. */
    private Sample turn() throws IOException {
        int i = cycle++;
        String path = paths.get(i % paths.size());
        long start = System.nanoTime();
        Worktree tree = workspaces.open(THREAD, head, "turn-" + i + ".1");
        long opened = System.nanoTime();
        long edited;
        ChangeSet changes;
        String reverted = null;
        try {
            if (lastChanged != null && !texts.get(lastChanged).equals(Files.readString(tree.dir().resolve(lastChanged)))) {
                reverted = lastChanged + " still held the previous turn's change at the next turn's start";
            }
            lastChanged = path;
            Files.writeString(tree.dir().resolve(path), "turn " + i + "\n", StandardCharsets.UTF_8, StandardOpenOption.APPEND);
            edited = System.nanoTime();
            changes = tree.changes("Turn " + i + ": change " + path, Instant.now());
        } catch (RuntimeException | IOException e) {
            tree.close();
            throw e;
        }
        long changed = System.nanoTime();
        tree.close();
        long closed = System.nanoTime();
        return new Sample(opened - start, changed - edited, closed - changed,
                reverted != null ? reverted : check(changes, path, tree));
    }

    private String check(ChangeSet changes, String path, Worktree tree) {
        if (!changes.changed() || !head.equals(changes.base())
                || !changes.files().equals(List.of(new ChangeSet.FileChange(path, "M")))) {
            return "a turn that changed " + path + " gave " + changes.files() + " on " + changes.base();
        }
        return Files.exists(tree.dir()) ? tree.dir() + " left after close" : null;
    }

    private Cli.Report report(Path root, List<Sample> setUps, List<Sample> colds, List<Sample> turns, long[] sandboxed,
            long[] unconfined) {
        double sandboxP50 = ms(Percentiles.nearestRank(sandboxed, 50));
        double sandboxP99 = ms(Percentiles.nearestRank(sandboxed, 99));
        double bareP50 = ms(Percentiles.nearestRank(unconfined, 50));
        double bareP99 = ms(Percentiles.nearestRank(unconfined, 99));
        long[] cold = sorted(colds, Sample::total);
        double coldP50 = ms(Percentiles.nearestRank(cold, 50));
        double coldMax = ms(cold[cold.length - 1]);
        long[] setUp = sorted(setUps, Sample::total);
        long[] turn = sorted(turns, Sample::total);
        long failed = Stream.concat(setUps.stream(), turns.stream()).filter(s -> s.problem() != null).count();
        String firstProblem = Stream.concat(setUps.stream(), turns.stream()).map(Sample::problem)
                .filter(p -> p != null).findFirst().orElse("");
        double setUpP50 = ms(Percentiles.nearestRank(setUp, 50));
        double setUpP99 = ms(Percentiles.nearestRank(setUp, 99));
        double setUpMax = ms(setUp[setUp.length - 1]);
        double turnP50 = ms(Percentiles.nearestRank(turn, 50));
        double turnP99 = ms(Percentiles.nearestRank(turn, 99));
        double turnMax = ms(turn[turn.length - 1]);
        double openP50 = ms(Percentiles.nearestRank(sorted(setUps, Sample::open), 50));
        double closeP50 = ms(Percentiles.nearestRank(sorted(setUps, Sample::close), 50));
        double changesP50 = ms(Percentiles.nearestRank(sorted(turns, Sample::changes), 50));
        boolean fast = setUpP50 < TARGET_MS;
        boolean ok = failed == 0 && fast;
        int directories = (options.files() + FILES_PER_DIRECTORY - 1) / FILES_PER_DIRECTORY;
        String human = String.format(Locale.ROOT, """
                repository  %d files in %d directories, %.1f MiB of text, one commit (root %s)
                set-up      p50 %.1f ms, p99 %.1f ms, max %.1f ms (open: the cached checkout of %d files brought to the head, then close; %d times)
                            open p50 %.1f ms, close p50 %.1f ms; target p50 < %d ms
                cold        p50 %.1f ms, max %.1f ms (no cache: a whole checkout, then close; %d times)
                turn        p50 %.1f ms, p99 %.1f ms, max %.1f ms (open, one file changed, changes: its commit and diff, close; %d times)
                            changes p50 %.1f ms
                command     p50 %.1f ms, p99 %.1f ms in the bubblewrap sandbox; p50 %.1f ms, p99 %.1f ms unconfined (ls of 20 names; %d times each)
                checks      %d failed%s
                verdict     %s""", options.files(), directories, bytes / 1048576.0, root, setUpP50, setUpP99, setUpMax,
                options.files(), setUps.size(), openP50, closeP50, TARGET_MS, coldP50, coldMax, colds.size(), turnP50, turnP99, turnMax, turns.size(),
                changesP50, sandboxP50, sandboxP99, bareP50, bareP99, sandboxed.length, failed, firstProblem.isEmpty() ? "" : " (" + firstProblem + ")",
                ok ? "OK" : "FAILED" + (fast ? "" : " (set-up + tear-down p50 not under " + TARGET_MS + " ms)"));
        String json = String.format(Locale.ROOT, "{\"label\":\"%s\",\"files\":%d,\"n\":%d,"
                + "\"setup_teardown_p50_ms\":%.1f,\"setup_teardown_p99_ms\":%.1f,\"setup_teardown_max_ms\":%.1f,"
                + "\"open_p50_ms\":%.1f,\"close_p50_ms\":%.1f,\"cold_p50_ms\":%.1f,\"cold_max_ms\":%.1f,"
                + "\"turn_p50_ms\":%.1f,\"turn_p99_ms\":%.1f,"
                + "\"turn_max_ms\":%.1f,\"changes_p50_ms\":%.1f,\"command_sandboxed_p50_ms\":%.1f,"
                + "\"command_sandboxed_p99_ms\":%.1f,\"command_unconfined_p50_ms\":%.1f,\"command_unconfined_p99_ms\":%.1f,"
                + "\"target_ms\":%d,\"failed\":%d,\"ok\":%s}",
                options.label().replace("\"", "'"), options.files(), options.n(), setUpP50, setUpP99, setUpMax,
                openP50, closeP50, coldP50, coldMax, turnP50, turnP99, turnMax, changesP50, sandboxP50, sandboxP99, bareP50,
                bareP99, TARGET_MS, failed, ok);
        return Cli.Report.of(human, json, ok);
    }

    private static long[] sorted(List<Sample> samples, java.util.function.ToLongFunction<Sample> part) {
        return samples.stream().mapToLong(part).sorted().toArray();
    }

    private static double ms(long nanos) {
        return nanos / 1e6;
    }

    /** Removes the temporary root and everything under it. */
    private static void delete(Path root) throws IOException {
        Workspaces.deleteTree(root);
    }
}
