package dev.switchboard.testkit;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/**
 * A loopback TCP proxy in front of a PostgreSQL server that tests and the chaos runner use to
 * inject faults: cut every connection, stall all traffic, let one chosen transaction commit on
 * the server while its client never learns the outcome, or freeze one chosen transaction's client
 * half-way, so its session sits idle inside the transaction holding its locks.
 *
 * <p>It understands the frontend side of the PostgreSQL v3 protocol well enough to follow
 * statements and transactions, so <strong>clients must connect with {@code sslmode=disable}</strong>
 * (or any mode the server answers with 'N'): once the server accepts TLS or GSS encryption the
 * proxy only copies bytes and can no longer fire {@link #cutAfterCommit commit faults}.
 *
 * <p>Each proxied connection uses two daemon threads, one per direction, relaying a message at a
 * time.
 */
public final class PgFaultProxy implements AutoCloseable {

    private static final int PROTOCOL_3 = 196608;
    private static final int SSL_REQUEST = 80877103;
    private static final int GSSENC_REQUEST = 80877104;
    /** Startup packets are tiny; anything bigger is not PostgreSQL and is only copied. */
    private static final int MAX_STARTUP_LENGTH = 10_000;
    private static final int CONNECT_TIMEOUT_MS = 5_000;
    private static final int CHUNK = 64 * 1024;

    private final int listenPort;
    private final String targetHost;
    private final int targetPort;

    private volatile ServerSocket listener;
    private volatile boolean closed;
    private final Set<Conn> conns = ConcurrentHashMap.newKeySet();
    private final List<ArmedFault> armed = new ArrayList<>(); // guarded by itself
    private final List<Hold> holds = new ArrayList<>(); // guarded by itself
    /** Read without the lock on the hot path: most batches meet no armed hold. */
    private volatile boolean holdsArmed;
    private final AtomicInteger accepted = new AtomicInteger();
    private final AtomicInteger cuts = new AtomicInteger();
    private final AtomicInteger connIds = new AtomicInteger();

    private final Object stallLock = new Object();
    /** Read without the lock on the hot path; waiting and waking happen under {@link #stallLock}. */
    private volatile boolean stalled;

    /**
     * Creates a proxy; nothing listens until {@link #start()}.
     *
     * @param listenPort port on 127.0.0.1 to listen on, 0 for an ephemeral one (see {@link #port()})
     * @param targetHost host of the PostgreSQL server
     * @param targetPort port of the PostgreSQL server
     */
    public PgFaultProxy(int listenPort, String targetHost, int targetPort) {
        if (listenPort < 0 || listenPort > 65535 || targetPort <= 0 || targetPort > 65535) {
            throw new IllegalArgumentException("bad port: listen " + listenPort + ", target " + targetPort);
        }
        this.listenPort = listenPort;
        this.targetHost = targetHost;
        this.targetPort = targetPort;
    }

    /**
     * Starts listening on 127.0.0.1 and accepting connections.
     *
     * @return this proxy
     * @throws UncheckedIOException if the port cannot be bound
     * @throws IllegalStateException if already started or closed
     */
    public synchronized PgFaultProxy start() {
        if (listener != null || closed) {
            throw new IllegalStateException("already started or closed");
        }
        listen(listenPort);
        return this;
    }

    private void listen(int port) {
        try {
            ServerSocket s = new ServerSocket();
            s.setReuseAddress(true);
            s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 128);
            listener = s;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot listen on 127.0.0.1:" + port, e);
        }
        Thread t = new Thread(this::acceptLoop, "pg-fault-proxy-" + port() + "-accept");
        t.setDaemon(true);
        t.start();
    }

    /**
     * The database goes away as a stopped server does: nothing listens on the proxy's port any more
     * (a new connection is refused) and every proxied connection is reset, until {@link #restore()}.
     *
     * @return how many connections were cut (also added to {@link #cuts()})
     * @throws IllegalStateException if not started, closed, or already out
     */
    public synchronized int outage() {
        ServerSocket s = listener;
        if (s == null || closed || s.isClosed()) {
            throw new IllegalStateException("not listening");
        }
        try {
            s.close(); // first: a client that reconnects after its cut is refused
        } catch (IOException ignored) {
            // closed either way
        }
        return cutAll();
    }

    /**
     * The database is back after an {@link #outage()}: the proxy listens on the same port again.
     *
     * @throws IllegalStateException if there is no outage to end
     */
    public synchronized void restore() {
        ServerSocket s = listener;
        if (s == null || closed || !s.isClosed()) {
            throw new IllegalStateException("no outage to end");
        }
        listen(s.getLocalPort());
    }

    /**
     * The port the proxy listens on, the chosen one when constructed with 0.
     *
     * @return the local port
     * @throws IllegalStateException if not started
     */
    public int port() {
        ServerSocket s = listener;
        if (s == null) {
            throw new IllegalStateException("not started");
        }
        return s.getLocalPort();
    }

    /**
     * Abruptly closes every current proxied connection on both sides; the client side is reset
     * (SO_LINGER 0) so the client sees an error rather than an orderly end. Connections accepted
     * afterwards work normally.
     *
     * @return how many connections were cut (also added to {@link #cuts()})
     */
    public int cutAll() {
        int n = 0;
        for (Conn c : conns) {
            if (c.abort(true)) {
                n++;
            }
        }
        return n;
    }

    /**
     * Holds (does not drop) all traffic in both directions while on, so the database looks hung;
     * turning it off forwards what was held, in order. Connections can still be accepted and cut
     * while stalled.
     *
     * @param on whether to stall
     */
    public void stall(boolean on) {
        synchronized (stallLock) {
            stalled = on;
            stallLock.notifyAll();
        }
    }

    /**
     * Arms a one-shot fault for the next transaction whose text matches {@code transaction} when
     * its COMMIT is sent: the proxy forwards the client's messages up to the end of that request
     * batch (Sync, or the simple Query itself), lets the server commit, swallows the server's
     * answer up to ReadyForQuery and then resets both sockets, so the client cannot tell whether
     * the commit happened. Other connections are unaffected. Several faults may be armed at once;
     * each fires at most once, the earliest armed matching one first, one per COMMIT.
     *
     * <p>The transaction text is what the connection sent since its last COMMIT, END, ROLLBACK or
     * ABORT (or since the server last reported it idle, so autocommitted statements do not leak
     * into the next transaction): each statement's text, and after a bound statement its
     * text-format parameter values, one piece per line, ending with the COMMIT statement itself.
     *
     * <p>The future completes with that text after the cut; it completes exceptionally if the
     * predicate throws, or if the connection ends (for example by {@link #cutAll()}) or the proxy
     * closes before the server answered. The future completes normally even if the server
     * answered the COMMIT with an error; it reports that the client was kept in the dark, not
     * that the data is there. Cancelling the future disarms the fault if it has not fired yet.
     *
     * @param transaction predicate over the transaction text
     * @return a future completing with the matched transaction text once the connection is cut
     */
    public CompletableFuture<String> cutAfterCommit(Predicate<String> transaction) {
        ArmedFault f = new ArmedFault(transaction);
        synchronized (armed) {
            if (closed) {
                f.future.completeExceptionally(new IllegalStateException("proxy closed"));
            } else {
                armed.add(f);
            }
        }
        return f.future;
    }

    /**
     * Arms a one-shot fault for the next request batch (ending with Sync or a simple Query), on
     * any connection, after which that connection's open transaction text (as for {@link
     * #cutAfterCommit}, without the COMMIT) matches {@code transaction}: the batch reaches the
     * server and its answer the client, and then nothing more the client sends is forwarded, as if
     * the client had frozen inside its transaction — the server's session sits idle in it, holding
     * its locks. Releasing the hold forwards what was held, in order; if the server ends the
     * session meanwhile (for example {@code idle_in_transaction_session_timeout}), the connection
     * ends, and the client learns it from the server's error.
     *
     * @param transaction predicate over the transaction text so far
     * @return the hold, to learn when it took hold or its connection ended, and to release it
     */
    public Hold holdAfter(Predicate<String> transaction) {
        Hold h = new Hold(transaction);
        synchronized (holds) {
            if (closed) {
                h.ended.completeExceptionally(new IllegalStateException("proxy closed"));
                h.release();
            } else {
                holds.add(h);
                holdsArmed = true;
            }
        }
        return h;
    }

    /**
     * A transaction frozen by {@link #holdAfter}. Releasing is idempotent; a hold released before
     * it matched anything is disarmed.
     */
    public static final class Hold extends OneShot implements AutoCloseable {
        private final CompletableFuture<String> held = new CompletableFuture<>();
        private final CompletableFuture<Void> ended = new CompletableFuture<>();
        private final CountDownLatch released = new CountDownLatch(1);

        private Hold(Predicate<String> predicate) {
            super(predicate);
        }

        @Override
        boolean armed() {
            return released.getCount() > 0;
        }

        @Override
        void predicateFailed(RuntimeException e) {
            held.completeExceptionally(e);
        }

        /**
         * Completes with the transaction text once a connection is held.
         *
         * @return the future of the held transaction's text
         */
        public CompletableFuture<String> held() {
            return held;
        }

        /**
         * Completes when the held connection ended while still held (the server ended the session,
         * or the proxy cut or closed it).
         *
         * @return the future of the held connection's end
         */
        public CompletableFuture<Void> ended() {
            return ended;
        }

        /** Lets the held connection go on (or disarms the hold if it never matched). */
        public void release() {
            released.countDown();
        }

        @Override
        public void close() {
            release();
        }
    }

    /**
     * Counts client connections accepted since start.
     *
     * @return number of accepted client connections
     */
    public int connectionsAccepted() {
        return accepted.get();
    }

    /**
     * Counts connections cut by a fault: {@link #cutAll()} and fired {@link #cutAfterCommit}
     * faults, not {@link #close()}.
     *
     * @return number of connections cut by faults
     */
    public int cuts() {
        return cuts.get();
    }

    /**
     * Stops accepting, resets every proxied connection and fails every armed fault that has not
     * fired. Idempotent.
     */
    @Override
    public void close() {
        closed = true;
        ServerSocket s = listener;
        if (s != null) {
            try {
                s.close();
            } catch (IOException ignored) {
                // nothing left to release
            }
        }
        for (Conn c : conns) {
            c.abort(false);
        }
        synchronized (armed) {
            for (ArmedFault f : armed) {
                f.future.completeExceptionally(new IllegalStateException("proxy closed"));
            }
            armed.clear();
        }
        synchronized (holds) {
            holds.forEach(Hold::release);
            holds.clear();
            holdsArmed = false;
        }
        synchronized (stallLock) {
            stallLock.notifyAll();
        }
    }

    private void acceptLoop() {
        ServerSocket s = listener;
        while (!closed) {
            Socket client;
            try {
                client = s.accept();
            } catch (IOException e) {
                if (closed || s.isClosed()) {
                    return;
                }
                continue;
            }
            accepted.incrementAndGet();
            Conn c = new Conn(connIds.incrementAndGet(), client);
            conns.add(c);
            if (closed) {
                c.abort(false);
                return;
            }
            Thread up = new Thread(c::runUpstream, "pg-fault-proxy-" + s.getLocalPort() + "-conn" + c.id + "-up");
            up.setDaemon(true);
            up.start();
        }
    }

    /** The first armed, not cancelled fault whose predicate matches; it is removed (one-shot). */
    private ArmedFault claimFault(String txText) {
        synchronized (armed) {
            return claimFirst(armed, txText);
        }
    }

    /** The first armed hold, not released, whose predicate matches; it is removed (one-shot). */
    private Hold claimHold(String txText) {
        synchronized (holds) {
            Hold h = claimFirst(holds, txText);
            holdsArmed = !holds.isEmpty();
            return h;
        }
    }

    /** Removes and returns the first live entry whose predicate matches; drops dead ones and ones whose predicate threw. */
    private static <T extends OneShot> T claimFirst(List<T> entries, String txText) {
        for (Iterator<T> it = entries.iterator(); it.hasNext(); ) {
            T entry = it.next();
            if (!entry.armed()) {
                it.remove();
                continue;
            }
            boolean match;
            try {
                match = entry.predicate.test(txText);
            } catch (RuntimeException e) {
                it.remove();
                entry.predicateFailed(e);
                continue;
            }
            if (match) {
                it.remove();
                return entry;
            }
        }
        return null;
    }

    /** A fault armed for the first transaction its predicate matches. */
    abstract static class OneShot {
        final Predicate<String> predicate;

        OneShot(Predicate<String> predicate) {
            this.predicate = predicate;
        }

        abstract boolean armed();

        abstract void predicateFailed(RuntimeException e);
    }

    /** Blocks while stalled; returns early when the connection or the proxy goes away. */
    private void awaitUnstalled(Conn c, BufferedOutputStream pending) throws IOException {
        if (!stalled) {
            return;
        }
        // What was relayed before the stall began must not be stuck behind it.
        pending.flush();
        synchronized (stallLock) {
            while (stalled && !c.ended.get() && !closed) {
                try {
                    stallLock.wait();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new InterruptedIOException("interrupted while stalled");
                }
            }
        }
    }

    private static final class ArmedFault extends OneShot {
        final CompletableFuture<String> future = new CompletableFuture<>();

        ArmedFault(Predicate<String> predicate) {
            super(predicate);
        }

        @Override
        boolean armed() {
            return !future.isDone();
        }

        @Override
        void predicateFailed(RuntimeException e) {
            future.completeExceptionally(e);
        }
    }

    /** A fault that matched a COMMIT on one connection and waits for the server's answer. */
    private static final class Firing {
        final ArmedFault fault;
        final String text;
        /** Server messages after this many ReadyForQuery answer the COMMIT's batch. */
        final long muteAfterZ;
        /** The ReadyForQuery ending the COMMIT's batch. */
        final long cutAtZ;
        volatile boolean answered;

        Firing(ArmedFault fault, String text, long batchesBefore) {
            this.fault = fault;
            this.text = text;
            this.muteAfterZ = batchesBefore;
            this.cutAtZ = batchesBefore + 1;
        }
    }

    /** One direction's streams; reads flush the opposite output first if they might block. */
    private static final class Leg {
        final DataInputStream in;
        final BufferedOutputStream out;
        final byte[] chunk = new byte[CHUNK];

        Leg(Socket from, Socket to) throws IOException {
            this.in = new DataInputStream(new BufferedInputStream(from.getInputStream(), CHUNK));
            this.out = new BufferedOutputStream(to.getOutputStream(), CHUNK);
        }

        /** Never block on input while output sits in our buffer: the peer may be waiting for it. */
        private void flushIfShort(int needed) throws IOException {
            if (in.available() < needed) {
                out.flush();
            }
        }

        /** The next byte, or -1 at end of stream. */
        int readByteOrEof() throws IOException {
            flushIfShort(1);
            return in.read();
        }

        int readInt() throws IOException {
            flushIfShort(4);
            return in.readInt();
        }

        byte[] readBody(int n) throws IOException {
            byte[] b = new byte[n];
            flushIfShort(n);
            in.readFully(b);
            return b;
        }

        void writeHeader(int type, int length) throws IOException {
            out.write(type);
            writeInt(length);
        }

        void writeInt(int v) throws IOException {
            out.write(v >>> 24);
            out.write(v >>> 16);
            out.write(v >>> 8);
            out.write(v);
        }
    }

    private final class Conn {
        final int id;
        final Socket client;
        private Socket server; // guarded by this
        final AtomicBoolean ended = new AtomicBoolean();
        final CountDownLatch done = new CountDownLatch(1);
        private int directionsDone; // guarded by this

        private Leg up;   // client -> server, owned by the up thread
        private Leg down; // server -> client, owned by the down thread once started

        // Frontend state, touched only by the up thread.
        private final PgTransactionText tx = new PgTransactionText();
        /** Request batches (startup, Sync, Query, FunctionCall) forwarded; each earns one ReadyForQuery. */
        private long batches;
        private boolean batchStart;

        // ReadyForQuery bookkeeping, written by the down thread.
        private final Object zLock = new Object();
        private long zCount; // guarded by zLock
        private int zStatus; // guarded by zLock

        volatile Firing firing;
        /** The hold this connection's client side is frozen by, if any. */
        volatile Hold holding;

        Conn(int id, Socket client) {
            this.id = id;
            this.client = client;
        }

        void runUpstream() {
            try {
                client.setTcpNoDelay(true);
                Socket s = new Socket();
                s.setTcpNoDelay(true);
                try {
                    s.connect(new InetSocketAddress(targetHost, targetPort), CONNECT_TIMEOUT_MS);
                } catch (IOException e) {
                    s.close();
                    throw e;
                }
                if (!attachServer(s)) {
                    return;
                }
                up = new Leg(client, s);
                down = new Leg(s, client);
                boolean typed = handshake();
                startDownstream(typed);
                boolean eof = typed ? relayFrontend() : copyBlind(up);
                if (eof) {
                    endDirection(up, s);
                }
            } catch (IOException | RuntimeException e) {
                abort(false);
            }
        }

        private synchronized boolean attachServer(Socket s) throws IOException {
            if (ended.get()) {
                s.close();
                return false;
            }
            server = s;
            return true;
        }

        private void startDownstream(boolean typed) {
            Thread t = new Thread(() -> {
                try {
                    boolean eof = typed ? relayBackend() : copyBlind(down);
                    if (eof) {
                        if (firing != null || holding != null) {
                            abort(false);
                        } else {
                            endDirection(down, client);
                        }
                    }
                } catch (IOException | RuntimeException e) {
                    abort(false);
                }
            }, "pg-fault-proxy-" + listener.getLocalPort() + "-conn" + id + "-down");
            t.setDaemon(true);
            t.start();
        }

        /**
         * Relays untyped startup-phase packets, answering SSL/GSS negotiation inline because the
         * answer is a single untyped byte the downstream parser could not frame.
         *
         * @return true to parse typed messages from now on, false to copy bytes blindly
         */
        private boolean handshake() throws IOException {
            while (true) {
                int len = up.readInt();
                if (len < 8 || len > MAX_STARTUP_LENGTH) {
                    awaitUnstalled(this, up.out);
                    up.writeInt(len);
                    up.out.flush();
                    return false;
                }
                byte[] body = up.readBody(len - 4);
                int code = ByteBuffer.wrap(body).getInt();
                awaitUnstalled(this, up.out);
                up.writeInt(len);
                up.out.write(body);
                up.out.flush();
                if (code == SSL_REQUEST || code == GSSENC_REQUEST) {
                    int answer = down.readByteOrEof();
                    if (answer < 0) {
                        throw new EOFException("server closed during SSL/GSS negotiation");
                    }
                    awaitUnstalled(this, down.out);
                    down.out.write(answer);
                    down.out.flush();
                    if (answer == 'N') {
                        continue; // the client now sends its StartupMessage, still untyped
                    }
                    return false; // TLS or GSS encryption: opaque from here on
                }
                if (code == PROTOCOL_3) {
                    batches = 1; // the startup ends with a ReadyForQuery too
                    batchStart = true;
                    return true;
                }
                return false; // CancelRequest or something unknown
            }
        }

        /** @return true at end of stream, false when held after a fired fault until the cut */
        private boolean relayFrontend() throws IOException {
            while (true) {
                int type = up.readByteOrEof();
                if (type < 0) {
                    return true;
                }
                int len = up.readInt();
                if (len < 4) {
                    throw new IOException("bad frontend message length " + len);
                }
                if (batchStart) {
                    batchStart = false;
                    resetIfIdle();
                }
                if (type == 'P' || type == 'B' || type == 'Q' || type == 'C') {
                    byte[] body = up.readBody(len - 4);
                    try {
                        inspect(type, body);
                    } catch (BufferUnderflowException | IllegalArgumentException | IndexOutOfBoundsException e) {
                        // Malformed for us; the server will judge it, we just stop understanding it.
                    }
                    awaitUnstalled(this, up.out);
                    up.writeHeader(type, len);
                    up.out.write(body);
                } else {
                    awaitUnstalled(this, up.out);
                    up.writeHeader(type, len);
                    pipeBody(up, len - 4);
                }
                if (type == 'S' || type == 'Q' || type == 'F') {
                    batches++;
                    batchStart = true;
                    if (firing != null) {
                        up.out.flush();
                        holdUntilCut();
                        return false;
                    }
                    if (holdsArmed && !freezeIfHeld()) {
                        return false;
                    }
                }
            }
        }

        /**
         * Freezes this client side if an armed hold matches the open transaction, until the hold
         * is released or the connection ends.
         *
         * @return false if the connection ended while frozen
         */
        private boolean freezeIfHeld() throws IOException {
            String text = tx.text();
            Hold h = text.isEmpty() ? null : claimHold(text);
            if (h == null) {
                return true;
            }
            up.out.flush();
            holding = h;
            h.held.complete(text);
            try {
                while (!ended.get() && !h.released.await(50, TimeUnit.MILLISECONDS)) {
                    // the down thread ends the connection when the server does
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException();
            } finally {
                holding = null;
            }
            if (ended.get()) {
                h.ended.complete(null);
                return false;
            }
            return true;
        }

        /** Implicit (autocommit) transactions end without a COMMIT; the server's idle status tells. */
        private void resetIfIdle() {
            synchronized (zLock) {
                if (zCount == batches && zStatus == 'I') {
                    tx.reset();
                }
            }
        }

        private void holdUntilCut() throws IOException {
            try {
                done.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException();
            }
        }

        private void inspect(int type, byte[] body) {
            String committed = tx.accept(type, body);
            if (committed != null && firing == null) {
                ArmedFault f = claimFault(committed);
                if (f != null) {
                    // Published before the COMMIT reaches the server, so no answer can beat it.
                    firing = new Firing(f, committed, batches);
                }
            }
        }

        /** @return true at end of stream, false when this thread performed a fault's cut */
        private boolean relayBackend() throws IOException {
            while (true) {
                int type = down.readByteOrEof();
                if (type < 0) {
                    return true;
                }
                int len = down.readInt();
                if (len < 4) {
                    throw new IOException("bad backend message length " + len);
                }
                Firing f = firing;
                long zSeen;
                synchronized (zLock) {
                    zSeen = zCount;
                }
                boolean mute = f != null && zSeen >= f.muteAfterZ;
                if (type == 'Z') {
                    byte[] body = down.readBody(len - 4);
                    long z;
                    // Counted before relaying, so a client that saw it finds the count up to date.
                    synchronized (zLock) {
                        z = ++zCount;
                        zStatus = body.length > 0 ? body[0] : 0;
                    }
                    if (mute) {
                        if (z >= f.cutAtZ) {
                            f.answered = true;
                            // If cutAll or close got there first, the server answered all the same.
                            abort(true);
                            f.fault.future.complete(f.text);
                            return false;
                        }
                        continue;
                    }
                    awaitUnstalled(this, down.out);
                    down.writeHeader(type, len);
                    down.out.write(body);
                } else if (mute) {
                    skip(down, len - 4);
                } else {
                    awaitUnstalled(this, down.out);
                    down.writeHeader(type, len);
                    pipeBody(down, len - 4);
                }
            }
        }

        private void pipeBody(Leg leg, int n) throws IOException {
            while (n > 0) {
                leg.flushIfShort(1);
                int r = leg.in.read(leg.chunk, 0, Math.min(n, leg.chunk.length));
                if (r < 0) {
                    throw new EOFException("stream ended inside a message");
                }
                awaitUnstalled(this, leg.out);
                leg.out.write(leg.chunk, 0, r);
                n -= r;
            }
        }

        private void skip(Leg leg, int n) throws IOException {
            while (n > 0) {
                int r = leg.in.read(leg.chunk, 0, Math.min(n, leg.chunk.length));
                if (r < 0) {
                    throw new EOFException("stream ended inside a message");
                }
                n -= r;
            }
        }

        /** @return true at end of stream */
        private boolean copyBlind(Leg leg) throws IOException {
            while (true) {
                leg.flushIfShort(1);
                int r = leg.in.read(leg.chunk);
                if (r < 0) {
                    return true;
                }
                awaitUnstalled(this, leg.out);
                leg.out.write(leg.chunk, 0, r);
            }
        }

        /** Passes an orderly end on as a half-close, so in-flight replies still reach the other side. */
        private void endDirection(Leg leg, Socket to) {
            try {
                leg.out.flush();
                to.shutdownOutput();
            } catch (IOException ignored) {
                // the other side is gone already; closing below is all that is left
            }
            boolean both;
            synchronized (this) {
                both = ++directionsDone == 2;
            }
            if (both && ended.compareAndSet(false, true)) {
                closeQuietly(client);
                closeQuietly(serverSocket());
                finished();
            }
        }

        /**
         * Resets both sockets, the client's with SO_LINGER 0 so it sees a reset, not an end.
         *
         * @return whether this call ended the connection
         */
        boolean abort(boolean countAsCut) {
            if (!ended.compareAndSet(false, true)) {
                return false;
            }
            if (countAsCut) {
                cuts.incrementAndGet();
            }
            resetQuietly(client);
            resetQuietly(serverSocket());
            finished();
            return true;
        }

        private synchronized Socket serverSocket() {
            return server;
        }

        private void finished() {
            conns.remove(this);
            done.countDown();
            Firing f = firing;
            if (f != null && !f.answered) {
                f.fault.future.completeExceptionally(new IOException(
                        "connection ended before the server answered the COMMIT; its outcome is unknown"));
            }
            // Wake our threads if they are held by a stall.
            synchronized (stallLock) {
                stallLock.notifyAll();
            }
        }
    }

    private static void resetQuietly(Socket s) {
        if (s == null) {
            return;
        }
        try {
            s.setSoLinger(true, 0);
        } catch (IOException ignored) {
            // already closed: nothing to reset
        }
        closeQuietly(s);
    }

    private static void closeQuietly(Socket s) {
        if (s == null) {
            return;
        }
        try {
            s.close();
        } catch (IOException ignored) {
            // nothing left to release
        }
    }
}
