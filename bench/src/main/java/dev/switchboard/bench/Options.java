package dev.switchboard.bench;

import java.net.URI;
import java.nio.file.Path;
import java.util.Map;

/** Command-line options of the load generator; {@code --name value} or {@code --name=value}. */
record Options(URI url, int n, int k, int concurrency, int batch, int warmUp, int timeoutS, String label, Path pidFile,
        String dbUrl) {

    static final String USAGE = """
            usage: LoadGenerator [--url http://127.0.0.1:9080] [--n 500] [--k 50]
                                 [--concurrency 16] [--batch 1] [--warm-up 0] [--timeout-s 300] [--label text]
                                 [--pid-file FILE --db-url JDBC-URL]
              --url          base URL of a running Switchboard server
              --n            number of messages to post
              --k            number of thread keys (message i goes to key i % k)
              --concurrency  POSTs in flight at once
              --batch        messages per POST: above 1, consecutive messages go together to
                             POST /v1/messages/batch (one transaction each)
              --warm-up      first post this many messages (over max(K, 50) other keys) and wait for them,
                             unreported: warms the server and this client's own JIT
              --timeout-s    give up if the runs are not all finished after this many seconds
              --label        free text printed with the results
              --pid-file     the server's PID file (target/instances/<name>/.pid/switchboard.pid);
                             with --db-url: report CPU, commits, rows and WAL per run
              --db-url       JDBC URL of the server's PostgreSQL database (user postgres)""";

    static Options parse(String[] args) {
        String url = "http://127.0.0.1:9080";
        int n = 500;
        int k = 50;
        int concurrency = 16;
        int batch = 1;
        int warmUp = 0;
        int timeoutS = 300;
        String label = "";
        Path pidFile = null;
        String dbUrl = null;
        for (Map.Entry<String, String> option : Cli.options(args).entrySet()) {
            String arg = option.getKey();
            String value = option.getValue();
            switch (arg) {
                case "--url" -> url = Cli.url(value);
                case "--n" -> n = Cli.positive(arg, value);
                case "--k" -> k = Cli.positive(arg, value);
                case "--concurrency" -> concurrency = Cli.positive(arg, value);
                case "--batch" -> batch = Cli.positive(arg, value);
                case "--warm-up" -> warmUp = value.equals("0") ? 0 : Cli.positive(arg, value);
                case "--timeout-s" -> timeoutS = Cli.positive(arg, value);
                case "--label" -> label = value;
                case "--pid-file" -> pidFile = Path.of(value);
                case "--db-url" -> dbUrl = value;
                default -> throw new IllegalArgumentException("unknown option " + arg);
            }
        }
        if ((pidFile == null) != (dbUrl == null)) {
            throw new IllegalArgumentException("--pid-file and --db-url go together");
        }
        return new Options(URI.create(url), n, k, concurrency, batch, warmUp, timeoutS, label, pidFile, dbUrl);
    }

}
