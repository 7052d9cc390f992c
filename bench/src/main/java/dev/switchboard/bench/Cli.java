package dev.switchboard.bench;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;

/** What the benchmark commands share: option syntax, value checks, and how a run reports and exits. */
final class Cli {

    /** A benchmark's outcome: a human-readable block, one JSON line, and whether every check passed. */
    interface Report {
        String human();

        String json();

        boolean ok();

        /** A report of these three parts. */
        static Report of(String human, String json, boolean ok) {
            return new Report() {
                @Override
                public String human() {
                    return human;
                }

                @Override
                public String json() {
                    return json;
                }

                @Override
                public boolean ok() {
                    return ok;
                }
            };
        }
    }

    /** A run that produces a report; {@link SwitchboardClient.BenchException} or an I/O error aborts it. */
    interface Benchmark {
        Report run() throws Exception;
    }

    private Cli() {
    }

    /**
     * {@code --name value} and {@code --name=value} pairs, in order. {@code --help} (or {@code -h})
     * throws an {@link IllegalArgumentException} with an empty message: print the usage only.
     */
    static Map<String, String> options(String[] args) {
        Map<String, String> options = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            int eq = arg.indexOf('=');
            if (arg.startsWith("--") && eq > 0) {
                options.put(arg.substring(0, eq), arg.substring(eq + 1));
            } else if (arg.equals("--help") || arg.equals("-h")) {
                throw new IllegalArgumentException("");
            } else if (i + 1 < args.length) {
                options.put(arg, args[++i]);
            } else {
                throw new IllegalArgumentException("missing value for " + arg);
            }
        }
        return options;
    }

    static int positive(String name, String value) {
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

    static double positiveNumber(String name, String value) {
        try {
            double v = Double.parseDouble(value.strip());
            if (v > 0 && Double.isFinite(v)) {
                return v;
            }
        } catch (NumberFormatException e) {
            // answered below
        }
        throw new IllegalArgumentException(name + " must be a positive number, got '" + value + "'");
    }

    /** A base URL without its trailing slash. */
    static String url(String value) {
        return value.endsWith("/") ? value.substring(0, value.length() - 1) : value;
    }

    /**
     * Parses the options (usage and exit 2 when they are wrong), runs the benchmark, prints its
     * report and a final {@code RESULT {json}} line, and exits 0 when every check passed, 1 when
     * one failed, 2 when the run aborted.
     */
    static <O> void main(String[] args, Function<String[], O> parse, String usage, Function<O, Benchmark> benchmark) {
        O options;
        try {
            options = parse.apply(args);
        } catch (IllegalArgumentException e) {
            if (!e.getMessage().isEmpty()) {
                System.err.println(e.getMessage());
            }
            System.err.println(usage);
            System.exit(2);
            return;
        }
        int status;
        try {
            Report report = benchmark.apply(options).run();
            System.out.println(report.human());
            System.out.println("RESULT " + report.json());
            status = report.ok() ? 0 : 1;
        } catch (SwitchboardClient.BenchException e) {
            System.err.println("benchmark aborted: " + e.getMessage());
            status = 2;
        } catch (Exception e) {
            System.err.println("benchmark aborted: " + e);
            status = 2;
        }
        System.out.flush();
        if (status != 0) {
            System.exit(status);
        }
    }
}
