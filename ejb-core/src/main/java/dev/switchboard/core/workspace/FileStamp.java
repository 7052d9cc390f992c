package dev.switchboard.core.workspace;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.eclipse.jgit.lib.FileMode;
import org.eclipse.jgit.lib.ObjectId;

/**
 * What the file system said of a worktree's file when its content was known to be {@code blob}:
 * size, modification and change times, inode, and when that was looked at ({@code statNs}, by the
 * file system's clock, read before the look: {@link #fileSystemNow}). A file whose stamp still matches holds that blob without
 * being read again — the rule git's index follows. The change time cannot be set by a program (any
 * write, rename into place or permission change moves it on), so a file rewritten with the same
 * size and a forged modification time still shows. A stamp of a file changed within
 * {@link #TICK_NS} before it was looked at is <em>racy</em> — the file may have changed again
 * inside the same clock tick without its times moving — and is never trusted: such a file is read
 * (or written) again.
 */
record FileStamp(ObjectId blob, FileMode mode, long size, long modifiedNs, long changedNs, long inode, long statNs) {

    /** Longer than the coarsest clock tick file systems stamp times with (10 ms at HZ=100). */
    static final long TICK_NS = TimeUnit.MILLISECONDS.toNanos(20);
    private static final String ATTRIBUTES = "unix:size,lastModifiedTime,ctime,ino,mode,nlink";
    private static final int FORMAT = 2;

    /** A stamp of {@code attributes}, read at {@code statNs} (taken before reading them). */
    static FileStamp of(Map<String, Object> attributes, long statNs, ObjectId blob, FileMode mode) {
        return new FileStamp(blob, mode, (Long) attributes.get("size"), nanos(attributes.get("lastModifiedTime")),
                nanos(attributes.get("ctime")), ((Number) attributes.get("ino")).longValue(), statNs);
    }

    /** A head's file: what it should hold, nothing looked at. */
    static FileStamp wanted(ObjectId blob, FileMode mode) {
        return new FileStamp(blob, mode, -1, 0, 0, 0, 0);
    }

    /**
     * Now by the file system's own clock (the clock its file times come from, however coarse, and on a
     * shared volume the server's): the modification time {@code clock} gets when a byte is written to it.
     */
    static long fileSystemNow(Path clock) throws IOException {
        Files.write(clock, new byte[] {1});
        return nanos(Files.getLastModifiedTime(clock, LinkOption.NOFOLLOW_LINKS));
    }

    /** The attributes a stamp is compared with, read once per file. */
    static Map<String, Object> read(Path file) throws IOException {
        return Files.readAttributes(file, ATTRIBUTES, LinkOption.NOFOLLOW_LINKS);
    }

    /** Whether the file {@link #read} looked at may be run by its owner. */
    static boolean executable(Map<String, Object> attributes) {
        return ((Integer) attributes.get("mode") & 0100) != 0;
    }

    /** Whether the file {@link #read} looked at has another name somewhere (a hard link). */
    static boolean hardLinked(Map<String, Object> attributes) {
        return (Integer) attributes.get("nlink") > 1;
    }

    /** The file had not changed for a clock tick when it was looked at: a change since would show in its times. */
    boolean trusted() {
        return Math.max(modifiedNs, changedNs) < statNs - TICK_NS;
    }

    /** True when the file, as {@code now} describes it, still holds this stamp's blob. */
    boolean matches(Map<String, Object> now) {
        return trusted() && size == (Long) now.get("size") && modifiedNs == nanos(now.get("lastModifiedTime"))
                && changedNs == nanos(now.get("ctime")) && inode == ((Number) now.get("ino")).longValue();
    }

    /** Writes the stamps (a closed worktree's, for the next turn that takes its directory). */
    static void write(Path file, Map<String, FileStamp> stamps) throws IOException {
        try (DataOutputStream out = new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(file)))) {
            out.writeInt(FORMAT);
            out.writeInt(stamps.size());
            for (Map.Entry<String, FileStamp> e : stamps.entrySet()) {
                FileStamp s = e.getValue();
                out.writeUTF(e.getKey());
                s.blob().copyRawTo(out);
                out.writeInt(s.mode().getBits());
                out.writeLong(s.size());
                out.writeLong(s.modifiedNs());
                out.writeLong(s.changedNs());
                out.writeLong(s.inode());
                out.writeLong(s.statNs());
            }
        }
    }

    /** The stamps {@link #write} wrote; none when the file is unreadable or of another format. */
    static Map<String, FileStamp> readAll(Path file) {
        Map<String, FileStamp> stamps = new HashMap<>();
        try (DataInputStream in = new DataInputStream(new BufferedInputStream(Files.newInputStream(file)))) {
            if (in.readInt() != FORMAT) {
                return Map.of();
            }
            int count = in.readInt();
            byte[] raw = new byte[20];
            for (int i = 0; i < count; i++) {
                String path = in.readUTF();
                in.readFully(raw);
                stamps.put(path, new FileStamp(ObjectId.fromRaw(raw), FileMode.fromBits(in.readInt()), in.readLong(),
                        in.readLong(), in.readLong(), in.readLong(), in.readLong()));
            }
            return stamps;
        } catch (EOFException | RuntimeException cut) {
            return Map.of();
        } catch (IOException e) {
            return Map.of();
        }
    }

    private static long nanos(Object time) {
        FileTime t = (FileTime) time;
        return t.to(TimeUnit.NANOSECONDS);
    }
}
