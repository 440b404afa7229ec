package io.bdmpi.examples.data;

import io.bdmpi.examples.Options;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Set;

/**
 * Command line for the data generators (a plain Java program, not an MPI one):
 *
 * <pre>
 * java -cp examples.jar io.bdmpi.examples.data.Generate rmat    --out G --scale 20 --edge-factor 16 [--seed 1] [--memory 256m]
 * java -cp examples.jar io.bdmpi.examples.data.Generate docs    --out D --docs 100000 --terms 50000 --avg-terms 100 [--seed 1]
 * java -cp examples.jar io.bdmpi.examples.data.Generate ratings --out R --users 100000 --items 20000 --avg-ratings 50 [--seed 1]
 * common: [--threads N] [--chunk N]  (rows per task; edges per task for rmat)
 * </pre>
 *
 * The output is the same for every {@code --threads}, {@code --chunk} and {@code --memory}. Bad
 * input prints {@code generate: <reason>} and exits with 2; an I/O failure exits with 1, leaving
 * no partial file.
 */
public final class Generate {

    static final int EXIT_USAGE = 2;
    static final int EXIT_IO = 1;

    private Generate() {
    }

    /** Runs the program with the options of the class comment. */
    public static void main(String[] args) {
        try {
            run(args);
        } catch (IllegalArgumentException e) {
            System.err.println("generate: " + e.getMessage());
            System.exit(EXIT_USAGE);
        } catch (IOException e) {
            System.err.println("generate: " + e);
            System.exit(EXIT_IO);
        }
    }

    /** Runs one generator; throws {@link IllegalArgumentException} for bad input. */
    public static void run(String[] args) throws IOException {
        if (args.length == 0) {
            throw new IllegalArgumentException("usage: Generate rmat|docs|ratings --out FILE [options]; see the Javadoc");
        }
        int threads = Math.max(1, Runtime.getRuntime().availableProcessors());
        switch (args[0]) {
            case "rmat" -> {
                Options o = Options.parse(args, 1, Set.of("out", "scale", "edge-factor", "seed", "threads", "chunk", "memory"));
                Path out = o.path("out");
                RmatGenerator g = new RmatGenerator(o.integer("scale", 1, 30), o.integer("edge-factor", 16, 1, 1 << 20),
                        o.number("seed", 1));
                g.write(out, o.integer("chunk", 1 << 20, 1, 1 << 28), o.integer("threads", threads, 1, 1024),
                        o.number("memory", 256L << 20));
            }
            case "docs" -> {
                Options o = Options.parse(args, 1, Set.of("out", "docs", "terms", "avg-terms", "seed", "threads", "chunk"));
                Path out = o.path("out");
                new DocTermGenerator(o.number("docs"), o.integer("terms", 1, Integer.MAX_VALUE),
                        o.integer("avg-terms", 100, 1, 1 << 24), o.number("seed", 1))
                        .write(out, o.integer("chunk", 4096, 1, 1 << 24), o.integer("threads", threads, 1, 1024));
            }
            case "ratings" -> {
                Options o = Options.parse(args, 1, Set.of("out", "users", "items", "avg-ratings", "seed", "threads", "chunk"));
                Path out = o.path("out");
                new RatingGenerator(o.number("users"), o.integer("items", 1, Integer.MAX_VALUE),
                        o.integer("avg-ratings", 50, 1, 1 << 24), o.number("seed", 1))
                        .write(out, o.integer("chunk", 4096, 1, 1 << 24), o.integer("threads", threads, 1, 1024));
            }
            default -> throw new IllegalArgumentException("unknown generator '" + args[0] + "': rmat, docs or ratings");
        }
    }
}
