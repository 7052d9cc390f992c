package dev.switchboard.rest.health;

import dev.switchboard.core.json.StatusAnswers;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ThreadFactory;
import java.util.function.Function;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * A tiny HTTP/1.1 server for probes — {@code GET <path>} answered with a status and a JSON body,
 * then the connection closed — that no client can stall: one thread reads every connection
 * without blocking, so a client that sends half a request, a TLS hello or nothing at all holds no
 * thread, only a small buffer; each has {@link #READ_TIMEOUT_MS} to send its request, and at most
 * {@link #MAX_CONNECTIONS} are open at once (the oldest is dropped for a newcomer), so a flood
 * costs bounded memory and never delays an honest probe by more than its own bytes.
 *
 * <p>Written here rather than taken from a library: the JDK's {@code HttpServer} reads each request
 * on a worker thread that a slow client holds until it gives up (one thread, and the port
 * stalled), and a full HTTP stack (Jetty, Netty) in the application for two GET routes would weigh
 * more than this. The answers must be quick to make ({@code answer} reads state that other
 * threads keep): they run on the one thread.
 */
public final class ProbeServer implements AutoCloseable {

    /** An answer: HTTP status and JSON body. */
    public record Answer(int status, String json) {
    }

    static final int MAX_CONNECTIONS = 512;
    static final long READ_TIMEOUT_MS = 5_000;
    /** A request line and headers larger than this are not a probe's. */
    static final int MAX_REQUEST_BYTES = 8_192;

    private static final Logger LOG = Logger.getLogger(ProbeServer.class.getName());
    private static final Answer NOT_FOUND = refusal(404);
    private static final Answer BAD_REQUEST = refusal(400);
    private static final Answer TOO_LARGE = refusal(431);

    /** One connection's state. */
    private static final class Exchange {
        final SocketChannel channel;
        final long deadline;
        final ByteBuffer in = ByteBuffer.allocate(MAX_REQUEST_BYTES);
        ByteBuffer out;

        Exchange(SocketChannel channel, long deadline) {
            this.channel = channel;
            this.deadline = deadline;
        }
    }

    private final Selector selector;
    private final ServerSocketChannel server;
    private final Function<String, Answer> answer;
    private final Thread thread;
    /** The open connections: the loop's own (only its thread touches it). */
    private final List<SelectionKey> open = new ArrayList<>();
    private volatile int openCount;
    private volatile boolean running = true;

    /**
     * Listens on {@code address} and answers {@code GET <path>} with {@code answer.apply(path)}
     * (null: 404); other methods are 404 too.
     */
    public ProbeServer(InetSocketAddress address, Function<String, Answer> answer, ThreadFactory threads)
            throws IOException {
        this.answer = answer;
        selector = Selector.open();
        server = ServerSocketChannel.open();
        server.setOption(StandardSocketOptions.SO_REUSEADDR, true);
        server.bind(address, 256);
        server.configureBlocking(false);
        server.register(selector, SelectionKey.OP_ACCEPT);
        thread = threads.newThread(this::loop);
        thread.setName("switchboard-probes");
        thread.start();
    }

    /** The port it listens on (the one asked for, or the one given for 0). */
    public int port() {
        return server.socket().getLocalPort();
    }

    private void loop() {
        try {
            serve();
        } finally {
            new ArrayList<>(open).forEach(this::close);
            try {
                server.close();
                selector.close();
            } catch (IOException e) {
                LOG.log(Level.FINE, "Closing the probe port", e);
            }
        }
    }

    private void serve() {
        while (running) {
            try {
                selector.select(250);
                for (SelectionKey key : selector.selectedKeys()) {
                    if (!key.isValid()) {
                        continue;
                    }
                    if (key.isAcceptable()) {
                        accept();
                    } else if (key.isReadable()) {
                        read(key);
                    } else if (key.isWritable()) {
                        write(key);
                    }
                }
                selector.selectedKeys().clear();
                expire();
            } catch (ClosedSelectorException stopped) {
                return;
            } catch (IOException | RuntimeException e) {
                LOG.log(Level.WARNING, "The probe port's loop failed once; it goes on", e);
            }
        }
    }

    private void accept() throws IOException {
        SocketChannel channel;
        while ((channel = server.accept()) != null) {
            if (open.size() >= MAX_CONNECTIONS) {
                open.stream().min(Comparator.comparingLong(k -> ((Exchange) k.attachment()).deadline)).ifPresent(this::close);
            }
            channel.configureBlocking(false);
            channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
            SelectionKey key = channel.register(selector, SelectionKey.OP_READ,
                    new Exchange(channel, System.currentTimeMillis() + READ_TIMEOUT_MS));
            open.add(key);
            openCount = open.size();
        }
    }

    private void read(SelectionKey key) {
        Exchange exchange = (Exchange) key.attachment();
        try {
            int n = exchange.channel.read(exchange.in);
            if (n < 0) {
                close(key);
                return;
            }
            byte first = exchange.in.get(0);
            if (first < 'A' || first > 'Z') {
                close(key); // not HTTP (a TLS hello, noise): nothing to answer in
                return;
            }
            int end = headersEnd(exchange.in);
            if (end < 0) {
                if (!exchange.in.hasRemaining()) {
                    respond(key, TOO_LARGE);
                }
                return;
            }
            respond(key, answerFor(new String(exchange.in.array(), 0, end, StandardCharsets.ISO_8859_1)));
        } catch (IOException e) {
            close(key);
        }
    }

    /** The answer to a request whose line and headers are {@code head}. */
    Answer answerFor(String head) {
        String line = head.substring(0, Math.max(0, head.indexOf('\n'))).strip();
        String[] parts = line.split(" ");
        if (parts.length != 3 || !parts[2].startsWith("HTTP/1.")) {
            return BAD_REQUEST;
        }
        if (!parts[0].equals("GET")) {
            return NOT_FOUND;
        }
        int query = parts[1].indexOf('?');
        Answer found = answer.apply(query < 0 ? parts[1] : parts[1].substring(0, query));
        return found == null ? NOT_FOUND : found;
    }

    /** Where the headers end (after the blank line), or -1 while they have not. */
    static int headersEnd(ByteBuffer in) {
        byte[] b = in.array();
        for (int i = 0; i < in.position(); i++) {
            if (b[i] == '\n' && ((i + 1 < in.position() && b[i + 1] == '\n')
                    || (i + 2 < in.position() && b[i + 1] == '\r' && b[i + 2] == '\n'))) {
                return i + (b[i + 1] == '\n' ? 2 : 3);
            }
        }
        return -1;
    }

    private void respond(SelectionKey key, Answer a) {
        byte[] body = a.json().getBytes(StandardCharsets.UTF_8);
        String head = "HTTP/1.1 " + a.status() + " " + reason(a.status()) + "\r\nContent-Type: application/json\r\n"
                + "Content-Length: " + body.length + "\r\nConnection: close\r\nCache-Control: no-store\r\n\r\n";
        byte[] headBytes = head.getBytes(StandardCharsets.ISO_8859_1);
        Exchange exchange = (Exchange) key.attachment();
        exchange.out = ByteBuffer.allocate(headBytes.length + body.length).put(headBytes).put(body).flip();
        key.interestOps(SelectionKey.OP_WRITE);
        write(key);
    }

    private void write(SelectionKey key) {
        Exchange exchange = (Exchange) key.attachment();
        try {
            exchange.channel.write(exchange.out);
            if (!exchange.out.hasRemaining()) {
                close(key);
            }
        } catch (IOException e) {
            close(key);
        }
    }

    /** Closes the connections whose time is up: one that sent no whole request in time gets no answer. */
    private void expire() {
        long now = System.currentTimeMillis();
        for (SelectionKey key : new ArrayList<>(open)) {
            if (((Exchange) key.attachment()).deadline <= now) {
                close(key);
            }
        }
    }

    private void close(SelectionKey key) {
        open.remove(key);
        openCount = open.size();
        key.cancel();
        try {
            ((Exchange) key.attachment()).channel.close();
        } catch (IOException ignored) {
            // closing: nothing more to do with it
        }
    }

    private static String reason(int status) {
        return switch (status) {
            case 200 -> "OK";
            case 400 -> "Bad Request";
            case 404 -> "Not Found";
            case 431 -> "Request Header Fields Too Large";
            case 503 -> "Service Unavailable";
            default -> "Status";
        };
    }

    /** The API's envelope for what a web module refuses ({@link StatusAnswers}). */
    private static Answer refusal(int status) {
        StatusAnswers.Answer answer = StatusAnswers.forStatus(status);
        return new Answer(answer.status(), answer.body());
    }

    /** How many connections are open. */
    int openConnections() {
        return openCount;
    }

    /** Stops the loop, which closes every connection and the port; waits a little for it. */
    @Override
    public void close() {
        running = false;
        selector.wakeup();
        try {
            thread.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
