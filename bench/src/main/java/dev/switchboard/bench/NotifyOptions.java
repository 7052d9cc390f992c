package dev.switchboard.bench;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;

/**
 * Command-line options of {@link NotifyBench}; {@code --name value} or {@code --name=value}. The
 * defaults of {@code --subscribers} and {@code --rate} depend on the scenario.
 */
record NotifyOptions(Scenario scenario, URI url, String token, int subscribers, int live, double rate, int durationS,
        int k, int concurrency, int graceS, int clientThreads, int connectConcurrency, Long serverPid,
        Path pidFile, String label) {

    /**
     * {@code latency}: one subscriber, 200 runs/s. {@code subscribers}: 1000 subscribers of every
     * thread, 10 runs/s. {@code crowd}: 11,000 subscribers each following one thread of its own,
     * the first {@code --live} (1000) the threads the runs go to (K = live), the rest threads that
     * nothing happens on; 200 runs/s.
     */
    enum Scenario {
        LATENCY(1, 200), SUBSCRIBERS(1000, 10), CROWD(11_000, 200);

        final int defaultSubscribers;
        final double defaultRate;

        Scenario(int defaultSubscribers, double defaultRate) {
            this.defaultSubscribers = defaultSubscribers;
            this.defaultRate = defaultRate;
        }

        String id() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    static final String USAGE = """
            usage: NotifyBench [--scenario latency|subscribers|crowd] [--url http://127.0.0.1:9080]
                               [--subscribers S] [--live L] [--rate R] [--duration-s 20] [--k 50]
                               [--concurrency 16] [--grace-s 10] [--client-threads 2]
                               [--connect-concurrency 32] [--server-pid PID | --pid-file FILE]
                               [--token TOKEN] [--label text]
              --scenario             latency (default): S=1, R=200; subscribers: S=1000, R=10;
                                     crowd: S=11000 each on a thread of its own, L=1000 of them live
                                     (K=L), R=200
              --live                 crowd: subscribers whose threads the runs go to (default 1000)
              --url                  base URL of a running Switchboard server (WebSocket: <url>/ws)
              --subscribers          WebSocket subscribers, each subscribed to all threads (crowd: to one)
              --rate                 target runs per second (POST /v1/messages), paced
              --duration-s           seconds of load (runs = rate x duration)
              --k                    thread keys (run i goes to key i % k)
              --concurrency          POSTs in flight at most
              --grace-s              after the load, wait this long for outstanding turn/completed
              --client-threads       threads that run the WebSocket listeners (all sockets)
              --connect-concurrency  WebSocket handshakes in flight while opening subscribers
              --server-pid           server JVM: measure its heap (jcmd GC.run, GC.heap_info)
                                     before opening the subscribers and after the load
              --pid-file             read the server PID from this file, e.g.
                                     target/instances/<name>/.pid/switchboard.pid
              --token                bearer token (only when the server has SWITCHBOARD_AUTH_TOKENS)
              --label                free text printed with the results""";

    static NotifyOptions parse(String[] args) {
        Scenario scenario = Scenario.LATENCY;
        String url = "http://127.0.0.1:9080";
        String token = null;
        Integer subscribers = null;
        int live = 1000;
        Double rate = null;
        int durationS = 20;
        int k = 50;
        int concurrency = 16;
        int graceS = 10;
        int clientThreads = 2;
        int connectConcurrency = 32;
        Long serverPid = null;
        Path pidFile = null;
        String label = "";
        for (Map.Entry<String, String> option : Cli.options(args).entrySet()) {
            String arg = option.getKey();
            String value = option.getValue();
            switch (arg) {
                case "--scenario" -> scenario = scenario(value);
                case "--url" -> url = Cli.url(value);
                case "--token" -> token = value.isBlank() ? null : value.strip();
                case "--subscribers" -> subscribers = Cli.positive(arg, value);
                case "--live" -> live = Cli.positive(arg, value);
                case "--rate" -> rate = Cli.positiveNumber(arg, value);
                case "--duration-s" -> durationS = Cli.positive(arg, value);
                case "--k" -> k = Cli.positive(arg, value);
                case "--concurrency" -> concurrency = Cli.positive(arg, value);
                case "--grace-s" -> graceS = Cli.positive(arg, value);
                case "--client-threads" -> clientThreads = Cli.positive(arg, value);
                case "--connect-concurrency" -> connectConcurrency = Cli.positive(arg, value);
                case "--server-pid" -> serverPid = (long) Cli.positive(arg, value);
                case "--pid-file" -> pidFile = Path.of(value);
                case "--label" -> label = value;
                default -> throw new IllegalArgumentException("unknown option " + arg);
            }
        }
        int total = subscribers != null ? subscribers : scenario.defaultSubscribers;
        if (scenario == Scenario.CROWD && live > total) {
            throw new IllegalArgumentException("--live must not exceed --subscribers");
        }
        return new NotifyOptions(scenario, URI.create(url), token, total, live,
                rate != null ? rate : scenario.defaultRate,
                durationS, scenario == Scenario.CROWD ? live : k, concurrency, graceS, clientThreads, connectConcurrency, serverPid, pidFile, label);
    }

    /** Runs to post: rate x duration, at least one. */
    int runs() {
        return (int) Math.max(1, Math.round(rate * durationS));
    }

    /** {@code ws://host:port/ws} (or {@code wss://}) of the base URL. */
    URI wsUri() {
        String scheme = "https".equalsIgnoreCase(url.getScheme()) ? "wss" : "ws";
        return URI.create(scheme + "://" + url.getRawAuthority() + "/ws");
    }

    private static Scenario scenario(String value) {
        try {
            return Scenario.valueOf(value.strip().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--scenario must be latency, subscribers or crowd, got '" + value + "'");
        }
    }

    /** The server JVM to measure: {@code --server-pid}, else read from {@code --pid-file}; null when neither was given. */
    Long pid() throws IOException {
        if (serverPid != null || pidFile == null) {
            return serverPid;
        }
        String text = Files.readString(pidFile).strip();
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw new IOException(pidFile + " holds no PID: '" + text + "'");
        }
    }


}
