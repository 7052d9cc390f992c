package dev.switchboard.it;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Locale;

/**
 * HTTP/1.1 and WebSocket over a plain socket, for requests no well-behaved client library would
 * send: any method, any bytes in the request target and headers, broken frames.
 */
final class RawClient {

    private static final SecureRandom RANDOM = new SecureRandom();

    private RawClient() {
    }

    /** An HTTP answer: status, content type, the (de-chunked) body, and how long it took. */
    record Answer(int status, String contentType, String body, long millis) {
    }

    static Answer http(int port, String method, String target, byte[] body, String... headers) {
        long start = System.nanoTime();
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(30_000);
            ByteArrayOutputStream request = new ByteArrayOutputStream();
            request.write((method + " " + target + " HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\nConnection: close\r\n")
                    .getBytes(StandardCharsets.ISO_8859_1));
            for (int i = 0; i < headers.length; i += 2) {
                request.write((headers[i] + ": " + headers[i + 1] + "\r\n").getBytes(StandardCharsets.UTF_8));
            }
            if (body != null) {
                request.write(("Content-Length: " + body.length + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
            }
            request.write("\r\n".getBytes(StandardCharsets.ISO_8859_1));
            if (body != null) {
                request.write(body);
            }
            OutputStream out = socket.getOutputStream();
            out.write(request.toByteArray());
            out.flush();
            byte[] raw = socket.getInputStream().readAllBytes();
            return parse(raw, (System.nanoTime() - start) / 1_000_000);
        } catch (IOException e) {
            throw new IllegalStateException(method + " " + abbreviate(target) + ": " + e, e);
        }
    }

    private static Answer parse(byte[] raw, long millis) {
        String all = new String(raw, StandardCharsets.ISO_8859_1);
        int end = all.indexOf("\r\n\r\n");
        if (end < 0) {
            throw new IllegalStateException("no HTTP answer: " + abbreviate(all));
        }
        String[] lines = all.substring(0, end).split("\r\n");
        int status = Integer.parseInt(lines[0].split(" ")[1]);
        String contentType = "";
        boolean chunked = false;
        for (String line : lines) {
            String lower = line.toLowerCase(Locale.ROOT);
            if (lower.startsWith("content-type:")) {
                contentType = line.substring(13).strip();
            } else if (lower.startsWith("transfer-encoding:") && lower.contains("chunked")) {
                chunked = true;
            }
        }
        byte[] body = java.util.Arrays.copyOfRange(raw, end + 4, raw.length);
        if (chunked) {
            body = dechunk(body);
        }
        return new Answer(status, contentType, new String(body, StandardCharsets.UTF_8), millis);
    }

    private static byte[] dechunk(byte[] body) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int i = 0;
        while (i < body.length) {
            int lineEnd = i;
            while (lineEnd + 1 < body.length && !(body[lineEnd] == '\r' && body[lineEnd + 1] == '\n')) {
                lineEnd++;
            }
            String size = new String(body, i, lineEnd - i, StandardCharsets.ISO_8859_1).split(";")[0].strip();
            int n = size.isEmpty() ? 0 : Integer.parseInt(size, 16);
            if (n == 0) {
                break;
            }
            out.write(body, lineEnd + 2, Math.min(n, body.length - lineEnd - 2));
            i = lineEnd + 2 + n + 2;
        }
        return out.toByteArray();
    }

    static String abbreviate(String s) {
        return s.length() > 160 ? s.substring(0, 160) + "…(" + s.length() + " chars)" : s;
    }

    /** A WebSocket connection on {@code /ws} that sends whatever frames it is given. */
    static final class Frames implements AutoCloseable {

        /** A frame the server sent: opcode, close code (or -1) and text. */
        record Frame(int opcode, int closeCode, String text) {
        }

        private final Socket socket;
        private final InputStream in;
        private final OutputStream out;

        Frames(int port) throws IOException {
            socket = new Socket("127.0.0.1", port);
            socket.setSoTimeout(15_000);
            in = socket.getInputStream();
            out = socket.getOutputStream();
            byte[] key = new byte[16];
            RANDOM.nextBytes(key);
            out.write(("GET /ws HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                    + "Sec-WebSocket-Key: " + Base64.getEncoder().encodeToString(key)
                    + "\r\nSec-WebSocket-Version: 13\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            StringBuilder head = new StringBuilder();
            while (!head.toString().endsWith("\r\n\r\n")) {
                int b = in.read();
                if (b < 0) {
                    throw new IOException("handshake ended early: " + head);
                }
                head.append((char) b);
            }
            if (!head.toString().startsWith("HTTP/1.1 101")) {
                throw new IOException("handshake refused: " + head);
            }
        }

        /** Sends one masked frame with this opcode and payload. */
        void send(int opcode, byte[] payload) throws IOException {
            sendHeader(opcode, payload.length);
            byte[] mask = new byte[4];
            RANDOM.nextBytes(mask);
            out.write(mask);
            byte[] masked = new byte[payload.length];
            for (int i = 0; i < payload.length; i++) {
                masked[i] = (byte) (payload[i] ^ mask[i % 4]);
            }
            out.write(masked);
            out.flush();
        }

        /** Writes these bytes as they are: frames that break the protocol itself. */
        void sendRaw(byte[] bytes) throws IOException {
            out.write(bytes);
            out.flush();
        }

        /** Announces a frame of {@code length} bytes and sends the first {@code sent} of them (unmasked zeros). */
        void announce(int opcode, long length, int sent) throws IOException {
            sendHeader(opcode, length);
            out.write(new byte[4]);
            try {
                out.write(new byte[sent]);
                out.flush();
            } catch (IOException e) {
                // the server may close before it reads all that was sent
            }
        }

        private void sendHeader(int opcode, long length) throws IOException {
            ByteBuffer header = ByteBuffer.allocate(10);
            header.put((byte) (0x80 | opcode));
            if (length < 126) {
                header.put((byte) (0x80 | length));
            } else if (length < 65536) {
                header.put((byte) (0x80 | 126)).putShort((short) length);
            } else {
                header.put((byte) (0x80 | 127)).putLong(length);
            }
            out.write(header.array(), 0, header.position());
        }

        /** The next frame from the server, or null when the connection ended or stayed silent for 15 s. */
        Frame next() throws IOException {
            try {
                int b0 = in.read();
                int b1 = in.read();
                if (b0 < 0 || b1 < 0) {
                    return null;
                }
                long length = b1 & 0x7f;
                if (length == 126) {
                    length = ((in.read() & 0xff) << 8) | (in.read() & 0xff);
                } else if (length == 127) {
                    length = ByteBuffer.wrap(in.readNBytes(8)).getLong();
                }
                byte[] payload = in.readNBytes((int) length);
                int opcode = b0 & 0x0f;
                if (opcode == 8) {
                    int code = payload.length >= 2 ? ((payload[0] & 0xff) << 8) | (payload[1] & 0xff) : -1;
                    String reason = payload.length > 2
                            ? new String(payload, 2, payload.length - 2, StandardCharsets.UTF_8) : "";
                    return new Frame(8, code, reason);
                }
                return new Frame(opcode, -1, new String(payload, StandardCharsets.UTF_8));
            } catch (SocketTimeoutException e) {
                return null;
            }
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }
}
