package dev.switchboard.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.stream.Stream;

/** Directory trees that tests create and throw away. */
public final class Trees {

    private Trees() {
    }

    /** Deletes {@code dir} and everything below it; nothing when it does not exist. */
    public static void delete(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + dir, e);
        }
    }

    /** Copies the tree {@code from} to {@code to} (which must not exist yet): directories, files and their times. */
    public static void copy(Path from, Path to) {
        try (Stream<Path> files = Files.walk(from)) {
            Files.createDirectories(to.toAbsolutePath().getParent());
            for (Path f : (Iterable<Path>) files::iterator) {
                Files.copy(f, to.resolve(from.relativize(f).toString()), StandardCopyOption.COPY_ATTRIBUTES,
                        LinkOption.NOFOLLOW_LINKS);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot copy " + from + " to " + to, e);
        }
    }
}
