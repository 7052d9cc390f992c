package dev.switchboard.bench;

import dev.switchboard.bench.SwitchboardClient.BenchException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The live heap of the server JVM, through {@code jcmd}: a full collection ({@code GC.run}), then
 * the used heap from {@code GC.heap_info}. Needs a HotSpot JDK's jcmd and the same OS user as the
 * server (the attach mechanism).
 */
final class ServerHeap {

    /** {@code used 45678K} (G1, Parallel, Serial generations, ZGC) or {@code 45678K used} (Shenandoah). */
    private static final Pattern USED_AFTER = Pattern.compile("\\bused\\s+(\\d+)([KMG]?)\\b");
    private static final Pattern USED_BEFORE = Pattern.compile("\\b(\\d+)([KMG])\\s+used\\b");

    private ServerHeap() {
    }

    /** Used heap in bytes right after a full GC. */
    static long usedAfterFullGc(long pid) throws IOException, InterruptedException {
        if (ProcessHandle.of(pid).isEmpty()) {
            throw new BenchException("no process with PID " + pid);
        }
        jcmd(pid, "GC.run");
        return parseUsed(jcmd(pid, "GC.heap_info"));
    }

    /**
     * Sums the {@code used} figure of the heap's top-level lines (one for G1, ZGC and Shenandoah; young
     * plus old for Serial and Parallel), skipping Metaspace and class space; a space's {@code NN% used}
     * does not match.
     */
    static long parseUsed(String heapInfo) {
        long used = 0;
        boolean found = false;
        for (String line : heapInfo.split("\\R")) {
            if (line.contains("Metaspace") || line.contains("class space")) {
                continue;
            }
            Matcher m = USED_AFTER.matcher(line);
            if (!m.find()) {
                m = USED_BEFORE.matcher(line);
                if (!m.find()) {
                    continue;
                }
            }
            used += Long.parseLong(m.group(1)) * unit(m.group(2));
            found = true;
        }
        if (!found) {
            throw new BenchException("no used heap in jcmd GC.heap_info output: " + heapInfo.strip());
        }
        return used;
    }

    private static long unit(String suffix) {
        return switch (suffix) {
            case "K" -> 1L << 10;
            case "M" -> 1L << 20;
            case "G" -> 1L << 30;
            default -> 1L;
        };
    }

    private static String jcmd(long pid, String command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(jcmdPath(), Long.toString(pid), command)
                .redirectErrorStream(true)
                .start();
        process.getOutputStream().close();
        String output;
        try (InputStream in = process.getInputStream()) {
            output = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        if (!process.waitFor(120, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new BenchException("jcmd " + pid + " " + command + " did not finish");
        }
        if (process.exitValue() != 0) {
            throw new BenchException("jcmd " + pid + " " + command + " exited " + process.exitValue() + ": "
                    + output.strip());
        }
        return output;
    }

    /** The jcmd beside this JVM's java, else the one on the PATH. */
    private static String jcmdPath() {
        Path sibling = Path.of(System.getProperty("java.home"), "bin", "jcmd");
        return Files.isExecutable(sibling) ? sibling.toString() : "jcmd";
    }
}
