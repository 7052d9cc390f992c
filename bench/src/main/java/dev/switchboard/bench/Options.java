package dev.switchboard.bench;

import java.net.URI;

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
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            String value;
            int eq = arg.indexOf('=');
            if (arg.startsWith("--") && eq > 0) {
                value = arg.substring(eq + 1);
                arg = arg.substring(0, eq);
            } else if (arg.equals("--help") || arg.equals("-h")) {
                throw new IllegalArgumentException("");
            } else if (i + 1 < args.length) {
                value = args[++i];
            } else {
                throw new IllegalArgumentException("missing value for " + arg);
            }
            switch (arg) {
                case "--url" -> url = value.endsWith("/") ? value.substring(0, value.length() - 1) : value;
                case "--n" -> n = positive(arg, value);
                case "--k" -> k = positive(arg, value);
                case "--concurrency" -> concurrency = positive(arg, value);
                case "--timeout-s" -> timeoutS = positive(arg, value);
                case "--label" -> label = value;
                default -> throw new IllegalArgumentException("unknown option " + arg);
            }
        }
        return new Options(URI.create(url), n, k, concurrency, timeoutS, label);
    }

    private static int positive(String name, String value) {
        try {
            int v = Integer.parseInt(value.strip());
            if (v > 0) {
                return v;
            }
        } catch (NumberFormatException e) {
            // answered below
        }
        throw new IllegalArgumentException(name + " must be a positive whole number, got '" + value + "'");
    }
}
