package dev.switchboard.core.workspace;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Where a closed worktree is kept for the thread's next turn ({@code dir}, its files' stamps inside
 * at {@link #STAMPS}, where no tool reaches, so the two move as one), and a file whose modification
 * time tells the file system's clock ({@code clock}). The cache is moved, never copied: a turn takes
 * it whole or not at all, and only one worktree can be kept.
 */
record CheckoutCache(Path dir, Path clock) {

    /** The worktree's log: what happens to the cache is part of a worktree's life. */
    private static final Logger LOG = Logger.getLogger(Worktree.class.getName());

    /** The stamps of a kept directory's files, inside it: {@code .git} is out of the tools' reach and never committed. */
    static final String STAMPS = ".git/switchboard-stamps";

    /**
     * Moves the cache to {@code worktree}, which must not exist, and returns the stamps kept with its
     * files; with no cache, or one that could not be taken, {@code worktree} is made empty and no
     * stamp is known.
     */
    Map<String, FileStamp> take(Path worktree) throws IOException {
        Map<String, FileStamp> known = Map.of();
        try {
            Files.move(dir, worktree, StandardCopyOption.ATOMIC_MOVE); // taken whole, or not at all
            known = FileStamp.readAll(worktree.resolve(STAMPS));
        } catch (NoSuchFileException noCache) {
            Files.createDirectory(worktree);
        } catch (IOException e) {
            LOG.log(Level.WARNING, "The checkout cache " + dir + " could not be taken; "
                    + "checking out whole", e);
            Workspaces.deleteTree(worktree);
            Files.createDirectory(worktree);
        }
        return known;
    }

    /**
     * Keeps {@code worktree} as the cache, with the {@code stamps} of its files; false when the
     * thread's cache is already there (the caller then removes the worktree).
     */
    boolean keep(Path worktree, Map<String, FileStamp> stamps) throws IOException {
        Files.createDirectories(worktree.resolve(STAMPS).getParent());
        FileStamp.write(worktree.resolve(STAMPS), stamps);
        try {
            Files.move(worktree, dir, StandardCopyOption.ATOMIC_MOVE);
            return true;
        } catch (IOException taken) {
            LOG.fine(() -> "The thread's checkout cache is already there; " + worktree + " is removed instead");
            return false;
        }
    }
}
