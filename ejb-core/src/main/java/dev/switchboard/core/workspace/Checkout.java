package dev.switchboard.core.workspace;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.FileMode;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectReader;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.revwalk.RevTree;
import org.eclipse.jgit.revwalk.RevWalk;
import org.eclipse.jgit.treewalk.TreeWalk;

/**
 * A directory brought to a head's files exactly: every file that is not the head's, or whose stamp
 * does not match (a turn wrote, deleted, renamed or re-permissioned it, or its stamp is racy), is
 * removed or written again from the head; directories left empty go, anything named {@code .git}
 * goes. A directory with no stamps — a fresh one — gets the head checked out whole.
 */
final class Checkout {

    private static final Set<PosixFilePermission> EXECUTABLE = PosixFilePermissions.fromString("rwxr-xr-x");

    private Checkout() {
    }

    /**
     * Brings {@code dir} to the files of {@code base} (null: nothing), trusting the {@code known}
     * stamps that still match; returns the stamps of its files, taken at {@code statNs}. The head's
     * submodule commits go into {@code gitlinks}.
     */
    static Map<String, FileStamp> bring(Repository repository, ObjectId base, Path dir, Map<String, FileStamp> known,
            long statNs, Map<String, ObjectId> gitlinks) throws IOException {
        Map<String, FileStamp> prepared = new HashMap<>();
        try (RevWalk commits = new RevWalk(repository); ObjectReader reader = repository.newObjectReader()) {
            Map<String, FileStamp> wanted = base == null ? Map.of()
                    : tree(repository, commits.parseCommit(base).getTree(), gitlinks);
            keepMatching(dir, wanted, known, prepared);
            Set<Path> made = new HashSet<>();
            for (Map.Entry<String, FileStamp> w : wanted.entrySet()) {
                if (prepared.containsKey(w.getKey())) {
                    continue;
                }
                Path file = dir.resolve(w.getKey());
                Path parent = file.getParent();
                if (made.add(parent)) {
                    Files.createDirectories(parent);
                }
                write(reader, w.getValue().blob(), w.getValue().mode(), file);
                prepared.put(w.getKey(), FileStamp.of(FileStamp.read(file), statNs, w.getValue().blob(),
                        w.getValue().mode()));
            }
        }
        return prepared;
    }

    /** The head's files by path: blob and mode (the stamp's other fields unused). */
    private static Map<String, FileStamp> tree(Repository repository, RevTree root, Map<String, ObjectId> gitlinks)
            throws IOException {
        Map<String, FileStamp> files = new HashMap<>();
        try (TreeWalk walk = new TreeWalk(repository)) {
            walk.addTree(root);
            walk.setRecursive(true);
            while (walk.next()) {
                FileMode mode = walk.getFileMode(0);
                if (mode == FileMode.REGULAR_FILE || mode == FileMode.EXECUTABLE_FILE || mode == FileMode.SYMLINK) {
                    files.put(walk.getPathString(), FileStamp.wanted(walk.getObjectId(0), mode));
                } else if (mode == FileMode.GITLINK) {
                    gitlinks.put(walk.getPathString(), walk.getObjectId(0)); // a submodule's commit: kept, not checked out
                }
            }
        }
        return files;
    }

    /**
     * Removes from {@code dir} everything that is not one of the {@code wanted} files as a trusted
     * stamp says it is, and the directories that leaves empty; what stays goes into {@code kept}.
     */
    private static void keepMatching(Path dir, Map<String, FileStamp> wanted, Map<String, FileStamp> known,
            Map<String, FileStamp> kept) throws IOException {
        Files.walkFileTree(dir, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path d, BasicFileAttributes attributes) {
                d.toFile().setWritable(true, true); // a command may have taken its own permissions away
                d.toFile().setExecutable(true, true);
                d.toFile().setReadable(true, true);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) throws IOException {
                String path = slashed(dir.relativize(file));
                FileStamp want = wanted.get(path);
                FileStamp stamp = known.get(path);
                if (want != null && stamp != null && stamp.blob().equals(want.blob()) && stamp.mode() == want.mode()
                        && stamp.matches(FileStamp.read(file))) {
                    kept.put(path, stamp);
                } else {
                    Files.delete(file);
                }
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path d, IOException e) throws IOException {
                if (e != null) {
                    throw e;
                }
                if (!d.equals(dir)) {
                    try (var left = Files.list(d)) {
                        if (left.findAny().isEmpty()) {
                            Files.delete(d);
                        }
                    }
                }
                return FileVisitResult.CONTINUE;
            }
        });
    }

    /** Writes {@code blob} as {@code file} with its {@code mode}: a symbolic link, an executable or a plain file. */
    static void write(ObjectReader reader, ObjectId blob, FileMode mode, Path file) throws IOException {
        if (mode == FileMode.SYMLINK) {
            Files.createSymbolicLink(file, Path.of(new String(reader.open(blob).getBytes(), StandardCharsets.UTF_8)));
            return;
        }
        try (OutputStream out = Files.newOutputStream(file, StandardOpenOption.CREATE_NEW)) {
            reader.open(blob, Constants.OBJ_BLOB).copyTo(out);
        }
        if (mode == FileMode.EXECUTABLE_FILE) {
            Files.setPosixFilePermissions(file, EXECUTABLE);
        }
    }

    /** A path relative to the worktree as git and the stamps name it: {@code /} between its names. */
    static String slashed(Path relative) {
        return relative.toString().replace(java.io.File.separatorChar, '/');
    }
}
