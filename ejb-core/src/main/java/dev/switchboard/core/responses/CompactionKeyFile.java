package dev.switchboard.core.responses;

import dev.switchboard.core.credential.SecretFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import javax.crypto.SecretKey;

/**
 * The file that keeps a server's compaction keys out of the database: one key in base64 per line,
 * oldest first — the last line seals, every line opens — so rotating is appending a line
 * ({@code head -c 32 /dev/urandom | base64 >> file}) and restarting. Made with one fresh key on
 * first use, readable and writable by its owner only. It is always written whole to a temporary
 * file that then takes its place, so a reader never sees half of it; of two instances making it at
 * once, the first one's stays and both read that.
 */
final class CompactionKeyFile {

    private final Path path;

    CompactionKeyFile(Path path) {
        this.path = path.toAbsolutePath();
    }

    Path path() {
        return path;
    }

    /** Its keys, the last line sealing; empty when there is no file. */
    Optional<CompactionKeyRing> ring() {
        List<SecretKey> newestFirst = new ArrayList<>(keys());
        if (newestFirst.isEmpty()) {
            return Optional.empty();
        }
        Collections.reverse(newestFirst);
        return Optional.of(new CompactionKeyRing(newestFirst));
    }

    /** {@link #ring()}, after making the file with one fresh key when there is none. */
    CompactionKeyRing ringMadeIfAbsent() {
        if (!Files.exists(path)) {
            make(List.of(CompactionKeyRing.newKey()));
        }
        return ring().orElseThrow();
    }

    /**
     * Keeps {@code older} opening and never sealing: it becomes the first line, and a file made now
     * has a fresh key after it, to seal. Nothing changes when the file holds it already (a twin, or
     * an earlier start that failed before it was done, put it there).
     */
    void keepOpening(SecretKey older) {
        List<SecretKey> lines = keys();
        if (lines.contains(older)) {
            return;
        }
        if (lines.isEmpty()) {
            if (make(List.of(older, CompactionKeyRing.newKey()))) {
                return;
            }
            lines = keys(); // a twin made it meanwhile
            if (lines.contains(older)) {
                return;
            }
        }
        List<SecretKey> withOlder = new ArrayList<>();
        withOlder.add(older);
        withOlder.addAll(lines);
        replace(withOlder);
    }

    /**
     * The file's keys in its order (blank lines aside); none when there is no file.
     *
     * @throws IllegalArgumentException for a line that is not a key, or a file without one
     */
    List<SecretKey> keys() {
        List<String> lines;
        try {
            lines = Files.readAllLines(path, StandardCharsets.US_ASCII);
        } catch (NoSuchFileException absent) {
            return List.of();
        } catch (IOException e) {
            throw new UncheckedIOException("the compaction key file " + path + " could not be read", e);
        }
        List<SecretKey> keys = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            if (!lines.get(i).isBlank()) {
                keys.add(CompactionKeyRing.key(lines.get(i), "line " + (i + 1) + " of the compaction key file " + path));
            }
        }
        if (keys.isEmpty()) {
            throw new IllegalArgumentException("the compaction key file " + path + " has no key");
        }
        return keys;
    }

    /** Makes the file unless it exists; false when it did (a twin made it first, and its keys stay). */
    private boolean make(List<SecretKey> lines) {
        try {
            return SecretFiles.createOnce(path, text(lines));
        } catch (IOException e) {
            throw new UncheckedIOException("the compaction key file " + path + " could not be made", e);
        }
    }

    private void replace(List<SecretKey> lines) {
        try {
            SecretFiles.replace(path, text(lines));
        } catch (IOException e) {
            throw new UncheckedIOException("the compaction key file " + path + " could not be rewritten", e);
        }
    }

    private static String text(List<SecretKey> lines) {
        return lines.stream().map(CompactionKeyRing::base64).collect(Collectors.joining("\n", "", "\n"));
    }
}
