package dev.switchboard.core.workspace;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.eclipse.jgit.diff.DiffEntry;
import org.eclipse.jgit.lib.FileMode;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectInserter;
import org.eclipse.jgit.lib.ObjectReader;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.patch.FileHeader;
import org.eclipse.jgit.patch.FormatError;
import org.eclipse.jgit.patch.Patch;
import org.eclipse.jgit.patch.PatchApplier;
import org.eclipse.jgit.revwalk.RevTree;
import org.eclipse.jgit.revwalk.RevWalk;
import org.eclipse.jgit.treewalk.TreeWalk;

/**
 * A unified diff applied to a worktree's files as they are now ({@link Worktree#applyDiff}): read
 * with git's headers added where it has none ({@link UnifiedDiffs}), applied by JGit to a snapshot
 * of the files, and written back only when all of it fits and every path it changes passes the
 * worktree's {@link Confinement}.
 */
final class DiffApplier {

    private DiffApplier() {
    }

    /**
     * Applies {@code diff} to the worktree of {@code snapshots}, all of it or none of it; returns the
     * paths it changed.
     *
     * @throws WorkspaceRefusal saying why the diff cannot be read, is refused, or does not apply
     */
    static List<String> apply(String diff, Repository repository, Confinement confinement, WorktreeSnapshots snapshots) {
        Patch patch = new Patch();
        byte[] bytes = UnifiedDiffs.withGitHeaders(diff).getBytes(StandardCharsets.UTF_8);
        patch.parse(bytes, 0, bytes.length);
        List<FormatError> errors = patch.getErrors().stream()
                .filter(e -> e.getSeverity() == FormatError.Severity.ERROR).toList();
        if (!errors.isEmpty()) {
            throw new WorkspaceRefusal("the diff cannot be read: " + errors.get(0).getMessage()
                    + (errors.get(0).getLineText() == null ? "" : " at: " + errors.get(0).getLineText().strip()));
        }
        if (patch.getFiles().isEmpty()) {
            throw new WorkspaceRefusal("the diff names no file (expected --- a/<path> and +++ b/<path> lines, then hunks)");
        }
        for (FileHeader file : patch.getFiles()) {
            for (String path : new String[] {file.getOldPath(), file.getNewPath()}) {
                if (path != null && !path.equals(DiffEntry.DEV_NULL)) {
                    confinement.resolve(path);
                }
            }
        }
        try (ObjectInserter inserter = repository.newObjectInserter(); RevWalk walk = new RevWalk(repository);
                ObjectReader reader = repository.newObjectReader()) {
            ObjectId now = snapshots.take(inserter);
            inserter.flush(); // the applier reads the files' blobs back
            RevTree before = walk.parseTree(now);
            PatchApplier.Result result = new PatchApplier(repository, before, inserter).applyPatch(patch);
            if (!result.getErrors().isEmpty()) {
                throw new WorkspaceRefusal("the diff does not apply, nothing was changed: " + result.getErrors().stream()
                        .map(Object::toString).map(String::strip).collect(java.util.stream.Collectors.joining("; ")));
            }
            inserter.flush();
            Map<String, TreeWalk> after = new HashMap<>();
            for (String path : result.getPaths()) { // every change is checked before any is written
                confinement.resolve(path);
                TreeWalk found = TreeWalk.forPath(repository, reader, path, result.getTreeId());
                after.put(path, found);
                if (found != null && found.getFileMode(0) == FileMode.SYMLINK) {
                    confinement.checkLink(path, new String(reader.open(found.getObjectId(0)).getBytes(),
                            StandardCharsets.UTF_8));
                }
            }
            for (String path : result.getPaths()) {
                Path file = confinement.resolve(path);
                TreeWalk found = after.get(path);
                Files.deleteIfExists(file);
                if (found == null) {
                    continue;
                }
                Files.createDirectories(file.getParent());
                Checkout.write(reader, found.getObjectId(0), found.getFileMode(0), file);
            }
            return List.copyOf(result.getPaths());
        } catch (IOException e) {
            throw new WorkspaceRefusal("the diff could not be applied: " + e.getMessage());
        }
    }
}
