package dev.switchboard.it;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * A client that stops reading: a raw socket with a tiny receive window that sends its request
 * (a WebSocket subscribe, or an NDJSON stream request), reads the response head and then nothing,
 * so whatever the server writes to it fills the TCP buffers and blocks. {@link #drain} reads what
 * a WebSocket received afterwards: the complete frames, and how the connection ended.
 */
final class StalledClient implements AutoCloseable {

    /**
     * What a drained connection held: complete messages, the close frame's code and reason if one
     * came, and whether the server ended the connection at all (false: it went silent for 10 s).
     */
    record Drained(List<String> messages, Integer closeCode, String closeReason, boolean ended) {
    }

    private final Socket socket;
    private final boolean webSocket;
    private final DataInputStream in;

    private StalledClient(Socket socket, boolean webSocket) throws IOException {
        this.socket = socket;
        this.webSocket = webSocket;
        this.in = new DataInputStream(socket.getInputStream());
    }

    private static Socket open(int port) throws IOException {
        Socket s = new Socket();
        s.setReceiveBufferSize(2048); // before connecting: the window stays small
        s.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
        s.setSoTimeout(10_000);
        return s;
    }

    /** Opens {@code /ws}, subscribes (to everything after {@code afterSeq}, or live when null), then stops reading. */
    static StalledClient webSocket(int port, Long afterSeq) throws IOException {
        Socket s = open(port);
        byte[] keyBytes = new byte[16];
        new SecureRandom().nextBytes(keyBytes);
        String request = "GET /ws HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\nUpgrade: websocket\r\n"
                + "Connection: Upgrade\r\nSec-WebSocket-Key: " + Base64.getEncoder().encodeToString(keyBytes)
                + "\r\nSec-WebSocket-Version: 13\r\n\r\n";
        OutputStream out = s.getOutputStream();
        out.write(request.getBytes(StandardCharsets.US_ASCII));
        out.flush();
        StalledClient client = new StalledClient(s, true);
        String head = client.readHead();
        if (!head.startsWith("HTTP/1.1 101")) {
            throw new IllegalStateException("WebSocket handshake refused: " + head);
        }
        String params = afterSeq == null ? "{}" : "{\"after_seq\":" + afterSeq + "}";
        client.sendText("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"subscribe\",\"params\":" + params + "}");
        return client;
    }

    /** Requests {@code /rpc/stream} from {@code afterSeq}, then stops reading after the response head. */
    static StalledClient ndjson(int port, long afterSeq) throws IOException {
        Socket s = open(port);
        String request = "GET /rpc/stream?after_seq=" + afterSeq + " HTTP/1.1\r\nHost: 127.0.0.1:" + port
                + "\r\nAccept: application/x-ndjson\r\n\r\n";
        s.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
        s.getOutputStream().flush();
        StalledClient client = new StalledClient(s, false);
        String head = client.readHead();
        if (!head.startsWith("HTTP/1.1 200")) {
            throw new IllegalStateException("stream refused: " + head);
        }
        return client;
    }

    private String readHead() throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int matched = 0;
        while (matched < 4) {
            int b = in.read();
            if (b < 0) {
                throw new EOFException("connection closed during the response head: " + head);
            }
            head.write(b);
            matched = (b == "\r\n\r\n".charAt(matched)) ? matched + 1 : (b == '\r' ? 1 : 0);
        }
        return head.toString(StandardCharsets.US_ASCII);
    }

    private void sendText(String text) throws IOException {
        byte[] payload = text.getBytes(StandardCharsets.UTF_8);
        byte[] mask = new byte[4];
        new SecureRandom().nextBytes(mask);
        ByteArrayOutputStream frame = new ByteArrayOutputStream();
        frame.write(0x81);
        if (payload.length < 126) {
            frame.write(0x80 | payload.length);
        } else {
            frame.write(0x80 | 126);
            frame.write(payload.length >> 8);
            frame.write(payload.length & 0xff);
        }
        frame.write(mask);
        for (int i = 0; i < payload.length; i++) {
            frame.write(payload[i] ^ mask[i % 4]);
        }
        socket.getOutputStream().write(frame.toByteArray());
        socket.getOutputStream().flush();
    }

    /**
     * WebSocket only: reads every frame that arrives until the server ends the connection (or 30 s
     * of silence: the server's close can sit behind a send it is timing out, and on a slow machine
     * that took more than the 10 s the other reads allow).
     */
    Drained drain() throws IOException {
        if (!webSocket) {
            throw new IllegalStateException("only a WebSocket is drained");
        }
        socket.setSoTimeout(30_000);
        List<String> messages = new ArrayList<>();
        ByteArrayOutputStream message = new ByteArrayOutputStream();
        try {
            while (true) {
                int b0 = in.readUnsignedByte();
                int b1 = in.readUnsignedByte();
                long length = b1 & 0x7f;
                if (length == 126) {
                    length = in.readUnsignedShort();
                } else if (length == 127) {
                    length = in.readLong();
                }
                byte[] payload = new byte[(int) length];
                in.readFully(payload);
                int opcode = b0 & 0x0f;
                if (opcode == 0x8) {
                    int code = payload.length >= 2 ? ((payload[0] & 0xff) << 8) | (payload[1] & 0xff) : 1005;
                    String reason = payload.length > 2 ? new String(payload, 2, payload.length - 2, StandardCharsets.UTF_8) : "";
                    return new Drained(messages, code, reason, true);
                }
                if (opcode == 0x1 || opcode == 0x0) {
                    message.write(payload);
                    if ((b0 & 0x80) != 0) {
                        messages.add(message.toString(StandardCharsets.UTF_8));
                        message.reset();
                    }
                }
            }
        } catch (SocketTimeoutException silent) {
            return new Drained(messages, null, null, false);
        } catch (EOFException | java.net.SocketException ended) {
            return new Drained(messages, null, null, true); // a torn last frame is not a message
        }
    }

    @Override
    public void close() throws IOException {
        socket.setSoLinger(true, 0);
        socket.close();
    }
}
