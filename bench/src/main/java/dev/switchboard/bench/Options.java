package dev.switchboard.bench;

import java.net.URI;
import java.util.Map;

/** Command-line options of the load generator; {@code --name value} or {@code --name=value}. */
record Options(URI url, int n, int k, int concurrency, int timeoutS, String label) {

    static final String USAGE = """
            usage: LoadGenerator [--url http://127.0.0.1:9080] [--n 500] [--k 50]
                                 [--concurrency 16] [--timeout-s 300] [--label text]
              --url          base URL of a running Switchboard server
              --n            number of messages to post
              --k            number of thread keys (message i goes to key i % k)
              --concurrency  POSTs in flight at once
              --timeout-s    give up if the runs are not all finished after this many seconds
              --label        free text printed with the results""";

    static Options parse(String[] args) {
        String url = "http://127.0.0.1:9080";
        int n = 500;
        int k = 50;
        int concurrency = 16;
        int timeoutS = 300;
        String label = "";
        for (Map.Entry<String, String> option : Cli.options(args).entrySet()) {
            String arg = option.getKey();
            String value = option.getValue();
            switch (arg) {
                case "--url" -> url = Cli.url(value);
                case "--n" -> n = Cli.positive(arg, value);
                case "--k" -> k = Cli.positive(arg, value);
                case "--concurrency" -> concurrency = Cli.positive(arg, value);
                case "--timeout-s" -> timeoutS = Cli.positive(arg, value);
                case "--label" -> label = value;
                default -> throw new IllegalArgumentException("unknown option " + arg);
            }
        }
        return new Options(URI.create(url), n, k, concurrency, timeoutS, label);
    }

}
