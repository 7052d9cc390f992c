package dev.switchboard.core.chat;

import dev.switchboard.core.conversation.ThreadKey;
import dev.switchboard.core.sql.Statements;
import dev.switchboard.core.sql.Store;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

/**
 * The chat tables of V14 in plain JDBC: sessions, the threads they own and the channels' thread
 * keys. Statements run in the caller's transaction.
 */
@Store({"chat_sessions", "chat_thread_keys", "chat_threads"})
@ApplicationScoped
public class ChatRecords {

    private static final String SESSION_COLUMNS = "user_key, session_id, active_thread, created_at, last_active_at";
    private static final String CREATE_SESSION = "INSERT INTO chat_sessions (" + SESSION_COLUMNS + ")"
            + " SELECT ?, ?, NULL, ?, ? WHERE NOT EXISTS (SELECT 1 FROM chat_sessions WHERE user_key = ?)";
    private static final String SESSION = "SELECT " + SESSION_COLUMNS + " FROM chat_sessions WHERE user_key = ?";
    private static final String LOCK_SESSION = SESSION + " FOR UPDATE";
    private static final String ACTIVATE = "UPDATE chat_sessions SET active_thread = ?, last_active_at = ? WHERE user_key = ?";
    private static final String TOUCH_SESSION = "UPDATE chat_sessions SET last_active_at = ? WHERE user_key = ?";

    private static final String THREAD_COLUMNS = "thread_id, user_key, source_channel, title, created_at, updated_at,"
            + " pending, pending_auth";
    private static final String CREATE_THREAD = "INSERT INTO chat_threads (thread_id, user_key, source_channel, title,"
            + " created_at, updated_at) VALUES (?, ?, ?, NULL, ?, ?)";
    private static final String THREAD = "SELECT " + THREAD_COLUMNS + " FROM chat_threads WHERE user_key = ? AND thread_id = ?";
    private static final String THREADS = "SELECT " + THREAD_COLUMNS + " FROM chat_threads WHERE user_key = ?"
            + " ORDER BY updated_at DESC, thread_id FETCH FIRST ? ROWS ONLY";
    private static final String PENDING = "SELECT pending FROM chat_threads WHERE user_key = ? AND thread_id = ?";
    private static final String LOCK_PENDING = PENDING + " FOR UPDATE";
    private static final String WRITE_PENDING = "UPDATE chat_threads SET pending = ? WHERE user_key = ? AND thread_id = ?";
    private static final String LOCK_PENDING_AUTH = "SELECT pending_auth FROM chat_threads WHERE user_key = ? AND thread_id = ? FOR UPDATE";
    private static final String WRITE_PENDING_AUTH = "UPDATE chat_threads SET pending_auth = ? WHERE user_key = ? AND thread_id = ?";
    private static final String AUTO_APPROVED = "SELECT auto_approved FROM chat_sessions WHERE user_key = ?";
    private static final String WRITE_AUTO_APPROVED = "UPDATE chat_sessions SET auto_approved = ? WHERE user_key = ?";
    private static final String UNDO = "SELECT undo FROM chat_threads WHERE user_key = ? AND thread_id = ?";
    private static final String WRITE_UNDO = "UPDATE chat_threads SET undo = ? WHERE user_key = ? AND thread_id = ?";
    private static final String TOUCH = "UPDATE chat_threads SET updated_at = ?, title = COALESCE(title, ?) WHERE user_key = ? AND thread_id = ?";

    private static final String IDLE_SESSIONS = "SELECT " + SESSION_COLUMNS + " FROM chat_sessions"
            + " WHERE last_active_at < ? ORDER BY last_active_at FETCH FIRST ? ROWS ONLY";
    private static final String COUNT_SESSIONS = "SELECT COUNT(*) FROM chat_sessions";
    private static final String DELETE_SESSION = "DELETE FROM chat_sessions WHERE user_key = ?";
    private static final String DELETE_KEYS = "DELETE FROM chat_thread_keys WHERE user_key = ?";
    private static final String DROP_UNDO = "UPDATE chat_threads SET undo = NULL WHERE user_key = ?";
    private static final String THREAD_IDS = "SELECT thread_id FROM chat_threads WHERE user_key = ?";

    private static final String MAPPED = "SELECT thread_id FROM chat_thread_keys WHERE user_key = ? AND channel = ?"
            + " AND external_key = ?";
    private static final String MAPPED_BY_USER = "SELECT 1 FROM chat_thread_keys WHERE user_key = ? AND thread_id = ? FETCH FIRST 1 ROWS ONLY";
    private static final String UNMAP = "DELETE FROM chat_thread_keys WHERE user_key = ? AND channel = ? AND external_key = ?";
    private static final String MAP = "INSERT INTO chat_thread_keys (user_key, channel, external_key, thread_id)"
            + " VALUES (?, ?, ?, ?)";

    /** The longest title kept: the start of the thread's first message. */
    static final int TITLE_LENGTH = 100;

    @Inject
    Statements statements;

    /** A user's session row. */
    public record SessionRow(String userKey, UUID sessionId, Optional<UUID> activeThread, long createdAt,
            long lastActiveAt) {
    }

    /** A chat thread's row: its owner and the channel that created it. */
    /** {@code pending}: the stored approval it waits for (JSON), or null; {@code pendingAuth} likewise the credential. */
    public record ThreadRow(UUID threadId, String userKey, String sourceChannel, String title, long createdAt,
            long updatedAt, String pending, String pendingAuth) {
    }

    /** Creates the user's session unless it exists; true when this call created it. */
    public boolean createSession(String userKey, UUID sessionId, long now) {
        return statements.update(CREATE_SESSION, s -> {
            s.setString(1, userKey);
            s.setString(2, sessionId.toString());
            s.setLong(3, now);
            s.setLong(4, now);
            s.setString(5, userKey);
        }, "creating the session of " + userKey) == 1;
    }

    public Optional<SessionRow> session(String userKey) {
        return statements.query(SESSION, s -> s.setString(1, userKey), ChatRecords::session,
                "reading the session of " + userKey).stream().findFirst();
    }

    /** The user's session row, locked until the transaction ends: a user's thread keys resolve one at a time. */
    public Optional<SessionRow> lockSession(String userKey) {
        return statements.query(LOCK_SESSION, s -> s.setString(1, userKey), ChatRecords::session,
                "locking the session of " + userKey).stream().findFirst();
    }

    public void activate(String userKey, UUID threadId, long now) {
        statements.update(ACTIVATE, s -> {
            s.setString(1, threadId.toString());
            s.setLong(2, now);
            s.setString(3, userKey);
        }, "activating thread " + threadId);
    }

    public void touchSession(String userKey, long now) {
        statements.update(TOUCH_SESSION, s -> {
            s.setLong(1, now);
            s.setString(2, userKey);
        }, "touching the session of " + userKey);
    }

    public void createThread(String userKey, UUID threadId, String sourceChannel, long now) {
        statements.updateOne(CREATE_THREAD, s -> {
            s.setString(1, threadId.toString());
            s.setString(2, userKey);
            s.setString(3, sourceChannel);
            s.setLong(4, now);
            s.setLong(5, now);
        }, "creating chat thread " + threadId);
    }

    public Optional<ThreadRow> thread(String userKey, UUID threadId) {
        return statements.query(THREAD, s -> bindThread(s, 1, userKey, threadId), ChatRecords::thread,
                "reading chat thread " + threadId).stream().findFirst();
    }

    /** The user's threads, most recently active first. */
    public List<ThreadRow> threads(String userKey, int limit) {
        return statements.query(THREADS, s -> {
            s.setString(1, userKey);
            s.setInt(2, limit);
        }, ChatRecords::thread, "listing the chat threads of " + userKey);
    }

    /** The approval the thread waits for (JSON), null when none. */
    public String pending(String userKey, UUID threadId) {
        return statements.query(PENDING, s -> bindThread(s, 1, userKey, threadId), rs -> rs.getString(1),
                "reading the approval of " + threadId).stream().filter(Objects::nonNull).findFirst().orElse(null);
    }

    /** As {@link #pending}, the thread's row locked until the transaction ends. */
    public String lockPending(String userKey, UUID threadId) {
        return statements.query(LOCK_PENDING, s -> bindThread(s, 1, userKey, threadId), rs -> rs.getString(1),
                "locking the approval of " + threadId).stream().filter(Objects::nonNull).findFirst().orElse(null);
    }

    /** {@code json} null: the thread waits for nothing. */
    public void writePending(String userKey, UUID threadId, String json) {
        statements.updateOne(WRITE_PENDING, s -> {
            s.setString(1, json);
            bindThread(s, 2, userKey, threadId);
        }, "writing the approval of " + threadId);
    }

    /** The credential the thread waits for (JSON), null when none; its row locked until the transaction ends. */
    public String lockPendingAuth(String userKey, UUID threadId) {
        return statements.query(LOCK_PENDING_AUTH, s -> bindThread(s, 1, userKey, threadId), rs -> rs.getString(1),
                "locking the auth prompt of " + threadId).stream().filter(Objects::nonNull).findFirst().orElse(null);
    }

    /** {@code json} null: the thread waits for no credential. */
    public void writePendingAuth(String userKey, UUID threadId, String json) {
        statements.updateOne(WRITE_PENDING_AUTH, s -> {
            s.setString(1, json);
            bindThread(s, 2, userKey, threadId);
        }, "writing the auth prompt of " + threadId);
    }

    /** The tools the user approved for the rest of their session (JSON array), null when none. */
    public String autoApproved(String userKey) {
        return statements.query(AUTO_APPROVED, s -> s.setString(1, userKey), rs -> rs.getString(1),
                "reading the approved tools of " + userKey).stream().filter(Objects::nonNull).findFirst().orElse(null);
    }

    public void writeAutoApproved(String userKey, String json) {
        statements.update(WRITE_AUTO_APPROVED, s -> {
            s.setString(1, json);
            s.setString(2, userKey);
        }, "writing the approved tools of " + userKey);
    }

    /** The thread's stored undo line (JSON), null when it has none. */
    public String undo(String userKey, UUID threadId) {
        return statements.query(UNDO, s -> bindThread(s, 1, userKey, threadId), rs -> rs.getString(1),
                "reading the undo line of " + threadId).stream().filter(Objects::nonNull).findFirst().orElse(null);
    }

    public void writeUndo(String userKey, UUID threadId, String json) {
        statements.updateOne(WRITE_UNDO, s -> {
            s.setString(1, json);
            bindThread(s, 2, userKey, threadId);
        }, "writing the undo line of " + threadId);
    }

    /** Notes activity on a thread; its title is the first text it was given. */
    public void touch(String userKey, UUID threadId, String text, long now) {
        String title = text.strip();
        String cut = title.length() > TITLE_LENGTH ? title.substring(0, TITLE_LENGTH) : title;
        statements.update(TOUCH, s -> {
            s.setLong(1, now);
            s.setString(2, cut.isEmpty() ? null : cut);
            bindThread(s, 3, userKey, threadId);
        }, "touching chat thread " + threadId);
    }

    public Optional<UUID> mapped(ThreadKey key) {
        return statements.query(MAPPED, s -> bindKey(s, key), rs -> UUID.fromString(rs.getString(1)),
                "resolving a thread key of " + key.userId()).stream().findFirst();
    }

    public boolean mappedByUser(String userKey, UUID threadId) {
        return !statements.query(MAPPED_BY_USER, s -> bindThread(s, 1, userKey, threadId), rs -> true,
                "looking up the keys of thread " + threadId).isEmpty();
    }

    /** Maps {@code key} to {@code threadId}, replacing a stale mapping. */
    public void map(ThreadKey key, UUID threadId) {
        statements.update(UNMAP, s -> bindKey(s, key), "unmapping a thread key of " + key.userId());
        statements.updateOne(MAP, s -> {
            bindKey(s, key);
            s.setString(4, threadId.toString());
        }, "mapping a thread key to " + threadId);
    }

    /** Sessions last active before {@code cutoff}, the longest idle first, at most {@code limit}. */
    public List<SessionRow> idleSessions(long cutoff, int limit) {
        return statements.query(IDLE_SESSIONS, s -> {
            s.setLong(1, cutoff);
            s.setInt(2, limit);
        }, ChatRecords::session, "listing idle chat sessions");
    }

    public long sessionCount() {
        return statements.query(COUNT_SESSIONS, s -> { }, rs -> rs.getLong(1), "counting chat sessions").get(0);
    }

    /** The ids of every chat thread of the user's. */
    public List<UUID> threadIds(String userKey) {
        return statements.query(THREAD_IDS, s -> s.setString(1, userKey), rs -> UUID.fromString(rs.getString(1)),
                "listing the chat threads of " + userKey);
    }

    /**
     * Removes the user's session, every thread key of theirs and their threads' undo lines (spec
     * §2.5); the threads and their history stay, reachable again by their ids.
     */
    public void removeSession(String userKey) {
        statements.update(DELETE_KEYS, s -> s.setString(1, userKey), "removing the thread keys of " + userKey);
        statements.update(DROP_UNDO, s -> s.setString(1, userKey), "removing the undo lines of " + userKey);
        statements.update(DELETE_SESSION, s -> s.setString(1, userKey), "removing the session of " + userKey);
    }

    /** {@code ''} for an absent channel thread id, {@code '='} + the id for a present one (V14). */
    static String externalKey(ThreadKey key) {
        return key.externalThreadId().map(id -> "=" + id).orElse("");
    }

    private static void bindKey(java.sql.PreparedStatement s, ThreadKey key) throws SQLException {
        s.setString(1, key.userId());
        s.setString(2, key.channel());
        s.setString(3, externalKey(key));
    }

    /** A chat thread is its owner's: ids are chosen per user, so every statement names both. */
    private static void bindThread(java.sql.PreparedStatement s, int first, String userKey, UUID threadId)
            throws SQLException {
        s.setString(first, userKey);
        s.setString(first + 1, threadId.toString());
    }

    private static SessionRow session(ResultSet rs) throws SQLException {
        String active = rs.getString(3);
        return new SessionRow(rs.getString(1), UUID.fromString(rs.getString(2)),
                Optional.ofNullable(active).map(UUID::fromString), rs.getLong(4), rs.getLong(5));
    }

    private static ThreadRow thread(ResultSet rs) throws SQLException {
        return new ThreadRow(UUID.fromString(rs.getString(1)), rs.getString(2), rs.getString(3), rs.getString(4),
                rs.getLong(5), rs.getLong(6), rs.getString(7), rs.getString(8));
    }
}
