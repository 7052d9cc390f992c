package dev.switchboard.it;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A TCP relay in front of a server port that can cut every connection going through it at once
 * (a network drop as a client sees it) while still accepting new ones — or, {@link #down() down},
 * cut them and end every new one at once until {@link #up()} (a server gone, as a client sees it).
 */
final class CuttableProxy implements AutoCloseable {

    private final ServerSocket listener;
    private final int target;
    private final List<Socket> open = new CopyOnWriteArrayList<>();
    private volatile boolean down;

    CuttableProxy(int target) throws IOException {
        this.target = target;
        this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(this::accept, "proxy-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    int port() {
        return listener.getLocalPort();
    }

    /** Ends every connection open through the proxy. */
    void cutAll() {
        for (Socket socket : open) {
            try {
                socket.close();
            } catch (IOException ignored) {
                // closing is all that is asked
            }
        }
        open.clear();
    }

    /** Cuts every connection and ends each new one at once, until {@link #up()}. */
    void down() {
        down = true;
        cutAll();
    }

    /** Relays new connections again. */
    void up() {
        down = false;
    }

    private void accept() {
        while (!listener.isClosed()) {
            Socket client;
            try {
                client = listener.accept();
            } catch (IOException closed) {
                return;
            }
            try {
                if (down) {
                    throw new IOException("the proxy is down");
                }
                Socket server = new Socket(InetAddress.getLoopbackAddress(), target);
                open.add(client);
                open.add(server);
                pump(client, server);
                pump(server, client);
            } catch (IOException refused) {
                try {
                    client.close(); // the client sees its connection end, as it would without the proxy
                } catch (IOException ignored) {
                    // already closed
                }
            }
        }
    }

    private void pump(Socket from, Socket to) {
        Thread thread = new Thread(() -> {
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                in.transferTo(out);
            } catch (IOException cut) {
                // one side ended
            } finally {
                try {
                    to.close();
                    from.close();
                } catch (IOException ignored) {
                    // already closed
                }
            }
        }, "proxy-pump");
        thread.setDaemon(true);
        thread.start();
    }

    @Override
    public void close() throws IOException {
        listener.close();
        cutAll();
    }
}
