package io.bdmpi.bench;

import io.bdmpi.examples.data.DocTermGenerator;
import io.bdmpi.examples.data.RatingGenerator;
import io.bdmpi.examples.data.RmatGenerator;
import io.bdmpi.examples.kmeans.KMeans;
import io.bdmpi.examples.kmeans.KMeansSerial;
import io.bdmpi.examples.pagerank.PageRank;
import io.bdmpi.examples.pagerank.PageRankSerial;
import io.bdmpi.examples.sgd.Sgd;
import io.bdmpi.examples.sgd.SgdSerial;
import io.bdmpi.examples.store.Styles;
import io.bdmpi.tests.support.Expect;
import io.bdmpi.tests.support.JobResult;
import io.bdmpi.tests.support.JobRunner;
import io.bdmpi.tests.support.Stats;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.bdmpi.bench.Report.column;

/**
 * Issue 6's benchmark: the paper's applications on generated data of 1x, 2x and 4x a memory size M,
 * every program under the same memory limit, page cache included:
 * <ul>
 * <li>the serial out-of-core baseline (a plain JVM streaming the file, only its vectors on the
 * heap), in a memory cgroup of its own ({@link LimitedJvm});</li>
 * <li>the MPI program in the paper's three styles (heap, mlock, ooc) under bdmpiexec
 * {@code --memory-limit}, -nr R (1) and S ranks such that what a running rank holds is at most
 * M / (2R) (for PageRank 1.5 times its share of the file, see PAGERANK_FOOTPRINT); the fastest style again with -nr 2 (the gain of running two ranks at once);</li>
 * <li>the plain program as one bare JVM: the serial program reading the whole data as one chunk
 * into its heap, under the same limit and the time cap (it is expected to fail or crawl once the
 * data outgrows the limit: the row records which).</li>
 * </ul>
 * The figure is seconds per iteration, each program timing its own iterations (set-up, JVM
 * start-up and input loading excluded and reported apart, see IterationTimer); the ratio is the
 * fastest style over serial out-of-core. The serial baseline runs twice, before and after the
 * styles, and the ratio is against the mean of the two: this VM slows down and speeds up in phases
 * of many minutes, and one serial run in a fast or slow phase would move the ratio by 10 to 20 %.
 * Both runs are shown, so a phase change during the styles is visible. A whole run matters too:
 * the table splits it into start-up, set-up and first iteration, and compares the best style's wall
 * time with the serial program's (target <= 2x at 1x M, <= 1.5x at 4x M). Bytes read and written are
 * the runs' /proc/PID/io (IoCounters); peak RSS is each program's VmHWM (for a job: its largest
 * slave's).
 *
 * <p>Every run has the same M for its data: a job's limit is M plus an allowance per JVM (the
 * master and every slave, parked ones included, keep a JVM's own memory, which no style can move
 * out; without it even the smallest job is killed), a plain JVM's is M plus one such allowance.
 *
 * <p>Properties: {@code bench.apps.memoryMiB} (M, 1024; quick 16), {@code bench.apps.sizes}
 * (multiples of M, "1,2,4"; quick "1"), {@code bench.apps.running} (-nr of the style runs, 1),
 * {@code bench.apps.timeoutMinutes} (cap per run, 15; quick 5), {@code bench.apps.dataDir}
 * (where the generated inputs are kept between runs; default a temporary directory, deleted),
 * {@code bench.apps.applications} (which of PageRank, K-means, SGD to run; default all).
 */
@Tag("benchmark")
class ApplicationsBenchmarkTest {

    private static final double BYTES_PER_MIB = 1024 * 1024;
    private static final double MB = 1e6;
    /** Approximate file bytes per R-MAT vertex at edge factor 16 (int column per edge, long row offset). */
    private static final double GRAPH_BYTES_PER_VERTEX = 66;
    /** Approximate file bytes per document at 50 term draws (int column + float value each). */
    private static final double DOC_BYTES = 48 * 8 + 8;
    /**
     * Ratings per user: Netflix-like, as the paper's data, so the factors are a small part of the
     * data (at 40 the user factors alone were a quarter of it, and every one is always in flight).
     */
    private static final int RATINGS_PER_USER = 200;
    /** Approximate file bytes per user (int column + float rating each). */
    private static final double USER_BYTES = RATINGS_PER_USER * 8 + 8;
    private static final Pattern TIMING = Pattern.compile(
            " timing: (\\d+) iterations, ([0-9.]+) s per iteration, ([0-9.]+) s set-up, peak RSS ([-0-9.]+) MiB, start-up ([0-9.]+) s, "
                    + "first iteration ([0-9.]+) s, CPU ([0-9.]+) s");
    /** A chunk larger than any input: the serial program then holds the whole data on its heap. */
    private static final String WHOLE_DATA = Long.toString(1L << 40);

    /**
     * Memory of the master's JVM and of each slave's (code, metaspace, GC structures, buffers), on
     * top of the data's M; measured (KMeans, 16 MiB of data, -ns 4): master up to 210 MiB, slaves
     * 75 to 92 MiB peak RSS.
     */
    private static final long MASTER_ALLOWANCE_BYTES = 256L << 20;
    private static final long SLAVE_ALLOWANCE_BYTES = 96L << 20;
    private static final List<String> STYLES = List.of("heap", "mlock", "ooc");
    /**
     * What a JVM holds besides its heap (code, metaspace, GC structures, thread stacks): every
     * JVM's -Xmx is its limit less this, so that a heap that outgrows the data's share fails in
     * the JVM (OutOfMemoryError) or makes it collect, instead of the kernel killing a JVM whose
     * heap was allowed the whole limit and never had a reason to collect.
     */
    private static final long NON_HEAP_BYTES = 96L << 20;
    /**
     * The young generation of the serial and bare JVMs. A serial program keeps its vectors for the
     * whole run (PageRank: 16 bytes per vertex, as much as M at 4x M), and with the serial
     * collector's default young generation of a third of the heap, the old one cannot hold them
     * (PageRankSerial at 4x M = 1 GiB ran out of heap allocating its second vector of 512 MiB).
     * They allocate little else (their chunk buffers are reused), so a small one is enough.
     */
    private static final String PLAIN_YOUNG_GENERATION = "-Xmn32m";
    /** Targets at 4x M: fastest style / serial out-of-core. */
    private static final Map<String, Double> TARGETS = Map.of("PageRank", 1.2, "K-means", 1.05, "SGD", 1.1);
    /**
     * Targets for a whole job's wall time (start-up, set-up, iterations, output) over the serial
     * program's, by data / M: at 1x the data mostly stays in memory, at 4x it goes to disk.
     */
    private static final Map<Integer, Double> WALL_TARGETS = Map.of(1, 2.0, 4, 1.5);
    /** The applications, in the order they run and appear in the table. */
    private static final List<String> APPLICATIONS = List.of("PageRank", "K-means", "SGD");

    /**
     * A PageRank rank holds about this many times its share of the file while it runs: its targets
     * (which overwrite the columns in place), the ranks, row offsets and incoming map, the send and
     * receive buffers (one sum per distinct destination) and the heap garbage of its pushes. Measured
     * at 4x M = 256 MiB (1133 MiB graph), style mlock, -nr 1, under the benchmark's limits: the
     * largest slave's peak RSS (VmHWM) was 128, 179, 212 and 272 MiB at S = 32, 16, 12 and 8, i.e.
     * about 80 MiB of a running JVM's own plus 1.36 (1.31 to 1.44 between neighbours) times its
     * share of the file; rounded up. (It was 4 while the targets were a second array as large as
     * the columns and set-up kept both.)
     */
    private static final double PAGERANK_FOOTPRINT = 1.5;

    private final int memoryMiB = BenchConfig.integer("bench.apps.memoryMiB", 1024, 16);
    private final List<Integer> sizes = BenchConfig.integers("bench.apps.sizes", List.of(1, 2, 4), List.of(1));
    private final int running = BenchConfig.integer("bench.apps.running", 1, 1);
    private final Duration cap = Duration.ofMinutes(BenchConfig.integer("bench.apps.timeoutMinutes", 15, 5));
    private final List<String> applications = BenchConfig.strings("bench.apps.applications", APPLICATIONS);
    /** Fastest style's seconds per iteration per M of data at the smallest size, per application: the linearity baseline. */
    private final Map<String, Double> firstPerM = new HashMap<>();

    /** S such that a running rank's footprint (its share of the data times {@code footprint}) is at most M / (2R). */
    private int slaves(int size, double footprint) {
        return Math.max(running, (int) Math.ceil(2.0 * running * size * footprint));
    }

    /** The bdmpiexec options that limit a job's memory (master and slaves, page cache included) to {@code bytes}. */
    static List<String> memoryLimitOptions(long bytes) {
        return List.of("--memory-limit", (bytes >> 20) + "m");
    }

    /**
     * What one run gave: its outcome and, if it finished, its figures: the program's own (see
     * IterationTimer: seconds per iteration, set-up, start-up from the first JVM's start to the
     * program's code, first iteration, CPU of all its processes) and the run's wall time.
     */
    private record Run(String outcome, Double perIteration, Double setup, Double startup, Double firstIteration, Double cpu, Double wall,
                       IoCounters io, Double peakMiB) {

        static Run failed(String outcome) {
            return new Run(outcome, null, null, null, null, null, null, null, null);
        }

        /** The figures of a finished run from its timing line {@code m}. */
        static Run of(Matcher m, double wall, IoCounters io, double peakMiB) {
            return new Run("ok", Double.parseDouble(m.group(2)), Double.parseDouble(m.group(3)), Double.parseDouble(m.group(5)),
                    Double.parseDouble(m.group(6)), Double.parseDouble(m.group(7)), wall, io, peakMiB);
        }

        /** The seconds per iteration, or the outcome of a run that gave none. */
        Object cell() {
            return perIteration != null ? perIteration : outcome;
        }

        Double readMB() {
            return io == null ? null : io.readBytes() / MB;
        }

        Double writtenMB() {
            return io == null ? null : io.writtenBytes() / MB;
        }
    }

    @Test
    void applicationsAgainstSerialOutOfCore() throws IOException {
        Report report = Report.of("applications", "Applications under the same memory limit: serial out-of-core, the three styles, one bare JVM",
                column("app", "application"),
                column("sizeTimesM", "data / M"),
                column("dataMiB", "data (MiB)"),
                column("slaves", "S"),
                column("running", "R"),
                column("limitMiB", "job limit (MiB)"),
                column("plainLimitMiB", "serial/bare limit (MiB)"),
                column("serialSecondsPerIteration", "serial OOC s/iter, before the styles"),
                column("serialAfterSecondsPerIteration", "serial OOC s/iter, after"),
                column("baselineSecondsPerIteration", "baseline: mean of the serial runs"),
                column("heapSecondsPerIteration", "heap s/iter"),
                column("mlockSecondsPerIteration", "mlock s/iter"),
                column("oocSecondsPerIteration", "ooc s/iter"),
                column("best", "best style"),
                column("ratio", "ratio (best / baseline)"),
                column("target", "target at 4x M"),
                column("met", "met"),
                column("growth", "best s/iter per M vs smallest size"),
                column("bestTwoRunningSecondsPerIteration", "best -nr 2 s/iter"),
                column("twoRunningGain", "-nr 2 gain"),
                column("bareSecondsPerIteration", "bare JVM s/iter"),
                column("serialStartupSeconds", "serial start-up s"),
                column("bestStartupSeconds", "best start-up s"),
                column("serialSetupSeconds", "serial set-up s"),
                column("bestSetupSeconds", "best set-up s"),
                column("serialFirstIterationSeconds", "serial first iteration s"),
                column("bestFirstIterationSeconds", "best first iteration s"),
                column("serialWallSeconds", "serial wall s, mean of the two runs"),
                column("bestWallSeconds", "best wall s"),
                column("wallRatio", "wall ratio (best / serial)"),
                column("wallTarget", "wall target"),
                column("wallMet", "wall met"),
                column("serialCpuSeconds", "serial CPU s"),
                column("bestCpuSeconds", "best CPU s (all processes)"),
                column("serialReadMB", "serial read MB"),
                column("serialWrittenMB", "serial written MB"),
                column("bestReadMB", "best read MB"),
                column("bestWrittenMB", "best written MB"),
                column("serialPeakRssMiB", "serial peak RSS MiB"),
                column("bestPeakRssMiB", "best: slave peak RSS max MiB"));
        for (String app : applications) {
            if (!APPLICATIONS.contains(app)) {
                throw new IllegalArgumentException("bench.apps.applications: unknown application " + app + ", not one of " + APPLICATIONS);
            }
        }
        long memory = memoryMiB * (1L << 20);
        String load = loadAverage();
        String cached = System.getProperty("bench.apps.dataDir");
        try (TempDirectory dir = TempDirectory.create("bdmpi-apps")) {
            Path data = cached == null || cached.isBlank() ? dir.path() : Files.createDirectories(Path.of(cached));
            for (int size : sizes) {
                long bytes = memory * size;
                if (applications.contains("PageRank")) {
                    pageRank(report, dir.path(), data, size, bytes, slaves(size, PAGERANK_FOOTPRINT));
                }
                if (applications.contains("K-means")) {
                    kMeans(report, dir.path(), data, size, bytes, slaves(size, 1));
                }
                if (applications.contains("SGD")) {
                    sgd(report, dir.path(), data, size, bytes, slaves(size, 1));
                }
            }
            if (data.equals(dir.path())) {
                deleteInputs(data);
            }
        }
        report.note("M = " + memoryMiB + " MiB; -nr " + running + "; S = max(R, ceil(2 R x footprint x data/M)), rounded up to a square for SGD; "
                        + "footprint = what a running rank holds per byte of its share of the file: " + PAGERANK_FOOTPRINT
                        + " for PageRank (targets, ranks, index maps and message buffers; measured from its slaves' peak RSS), 1 for the others. A size where every style failed "
                        + "has no best style.")
                .note("Every run has the same M for its data, page cache included, plus a measured allowance for each JVM's own memory: "
                        + "the jobs M + " + (MASTER_ALLOWANCE_BYTES >> 20) + " MiB for the master's JVM + " + (SLAVE_ALLOWANCE_BYTES >> 20)
                        + " MiB per slave JVM (bdmpiexec --memory-limit); the serial and bare JVMs M + " + (MASTER_ALLOWANCE_BYTES >> 20)
                        + " MiB for their one JVM (a memory cgroup of their own). Giving them the job's whole limit would hand the serial "
                        + "program S x " + (SLAVE_ALLOWANCE_BYTES >> 20) + " MiB of page cache for slave JVMs it does not have. Every JVM's -Xmx is its limit less "
                        + (NON_HEAP_BYTES >> 20) + " MiB for what it holds besides its heap.")
                .note("s/iter: each program's own timing of its iterations (JVM start-up, set-up and input loading excluded; shown apart: "
                        + "start-up, from the first JVM's start to the program's first code after MPI.Init; set-up, from there until the "
                        + "iterations start, input loading included; the first iteration, which pays for the JIT compiler). "
                        + "Wall: the whole run as the harness sees it, from starting the JVM or bdmpiexec to its exit; the wall ratio is "
                        + "the best style's over the mean of the serial runs', target <= 2 at 1x M (data mostly in memory), <= 1.5 at 4x M. "
                        + "CPU: the CPU time of all the run's program JVMs (for a job its slaves, not its master), a figure the machine's "
                        + "load moves less than wall times. "
                        + "A run that fails or hits the cap of " + cap.toMinutes() + " min is recorded as such. "
                        + "The serial program runs before and after the styles; the ratio is against the mean of the two runs.")
                .note("Targets at 4x M for the best style: PageRank <= 1.2x, K-means <= 1.05x, SGD <= 1.1x serial out-of-core. "
                        + "Growth: best s/iter per M of data over the same at the smallest size (1 = linear).")
                .note("-nr 2 gain = best style -nr " + running + " / best style -nr 2, same S. Bare JVM: the serial program reading the whole "
                        + "data as one chunk into its heap (what a program that loads everything holds).")
                .note("read/written MB (10^6 bytes): /proc/PID/io read_bytes and write_bytes of the run's processes (reads that reached the disk; "
                        + "bytes written into the page cache).")
                .note("SGD's serial baseline uses the MPI run's grid (q passes over the file per iteration) so that both do the same work.")
                .note("Load average (1, 5, 15 min) at the start: " + load + "; at the end: " + loadAverage() + ".")
                .publish();
    }

    private void pageRank(Report report, Path work, Path data, int size, long bytes, int slaves) throws IOException {
        int scale = Math.max(10, (int) Math.round(Math.log(bytes / GRAPH_BYTES_PER_VERTEX) / Math.log(2)));
        Path graph = data.resolve("graph-" + memoryMiB + "m-" + size);
        if (!Files.exists(graph)) {
            new RmatGenerator(scale, 16, 1).write(graph, 1 << 20, Runtime.getRuntime().availableProcessors(), bytes);
        }
        String iterations = BenchConfig.quick() ? "3" : "10";
        measure(report, "PageRank", size, graph, slaves, PageRankSerial.class, PageRank.class,
                List.of("--graph", graph.toString(), "--iterations", iterations, "--tolerance", "0"),
                List.of(), work.resolve("pr"));
    }

    private void kMeans(Report report, Path work, Path data, int size, long bytes, int slaves) throws IOException {
        Path docs = data.resolve("docs-" + memoryMiB + "m-" + size);
        if (!Files.exists(docs)) {
            new DocTermGenerator((long) (bytes / DOC_BYTES), 20_000, 50, 1).write(docs, 4096, Runtime.getRuntime().availableProcessors());
        }
        String iterations = BenchConfig.quick() ? "3" : "5";
        measure(report, "K-means", size, docs, slaves, KMeansSerial.class, KMeans.class,
                List.of("--matrix", docs.toString(), "--k", "16", "--iterations", iterations),
                List.of("--init-parts", Integer.toString(slaves)), work.resolve("km"));
    }

    private void sgd(Report report, Path work, Path data, int size, long bytes, int slaves) throws IOException {
        int q = (int) Math.ceil(Math.sqrt(slaves));
        Path ratings = data.resolve("ratings" + RATINGS_PER_USER + "-" + memoryMiB + "m-" + size);
        if (!Files.exists(ratings)) {
            new RatingGenerator((long) (bytes / USER_BYTES), 20_000, RATINGS_PER_USER, 1).write(ratings, 4096, Runtime.getRuntime().availableProcessors());
        }
        String iterations = BenchConfig.quick() ? "2" : "3";
        measure(report, "SGD", size, ratings, q * q, SgdSerial.class, Sgd.class,
                List.of("--ratings", ratings.toString(), "--iterations", iterations),
                List.of("--grid", Integer.toString(q)), work.resolve("sgd"));
    }

    /**
     * Runs the serial baseline, every style with -nr R, the fastest with -nr 2 and the bare JVM,
     * all under the same M, and adds the row (and saves the report so far). Any run may fail or
     * hit the cap: the row records that.
     */
    private void measure(Report report, String app, int size, Path data, int slaves, Class<?> serialMain, Class<?> mpiMain,
                         List<String> args, List<String> serialArgs, Path out) throws IOException {
        long limit = memoryMiB * (1L << 20) + MASTER_ALLOWANCE_BYTES + slaves * SLAVE_ALLOWANCE_BYTES;
        long plainLimit = memoryMiB * (1L << 20) + MASTER_ALLOWANCE_BYTES;
        List<String> serialAll = new ArrayList<>(args);
        serialAll.addAll(serialArgs);
        serialAll.addAll(List.of("--out", out + "-serial"));
        dropCache(data);
        Run serial = plain(plainLimit, serialMain, serialAll);
        List<String> mpiArgs = new ArrayList<>(args);
        mpiArgs.addAll(List.of("--out", out + "-mpi"));
        int nr = Math.min(running, slaves);
        Run[] perStyle = new Run[STYLES.size()];
        int best = -1;
        for (int i = 0; i < STYLES.size(); i++) {
            dropCache(data);
            perStyle[i] = job(mpiMain, slaves, nr, limit, STYLES.get(i), mpiArgs);
            if (perStyle[i].perIteration() != null && (best < 0 || perStyle[i].perIteration() < perStyle[best].perIteration())) {
                best = i;
            }
        }
        dropCache(data);
        Run serialAfter = plain(plainLimit, serialMain, serialAll);
        Double baseline = mean(serial.perIteration(), serialAfter.perIteration());
        Double serialWall = mean(serial.wall(), serialAfter.wall());
        Double wallTarget = WALL_TARGETS.get(size);
        if (best < 0) {
            report.row(app, size, Files.size(data) / BYTES_PER_MIB, slaves, nr, limit >> 20, plainLimit >> 20, serial.cell(),
                    serialAfter.cell(), baseline, perStyle[0].cell(), perStyle[1].cell(), perStyle[2].cell(), null, null,
                    size == 4 ? TARGETS.get(app) : null, size == 4 ? false : null, null, null, null, null, serial.startup(), null,
                    serial.setup(), null, serial.firstIteration(), null, serialWall, null, null, wallTarget, wallTarget == null ? null : false,
                    serial.cpu(), null, serial.readMB(), serial.writtenMB(), null, null, serial.peakMiB(), null);
            report.save();
            return;
        }
        Run fastest = perStyle[best];
        dropCache(data);
        Run two = slaves >= 2 && nr != 2 ? job(mpiMain, slaves, 2, limit, STYLES.get(best), mpiArgs) : null;
        List<String> bareAll = new ArrayList<>(serialAll);
        bareAll.addAll(List.of("--chunk-nnz", WHOLE_DATA));
        dropCache(data);
        Run bare = plain(plainLimit, serialMain, bareAll);
        Double ratio = baseline == null ? null : fastest.perIteration() / baseline;
        Double wallRatio = serialWall == null ? null : fastest.wall() / serialWall;
        Double target = size == 4 ? TARGETS.get(app) : null;
        double perM = fastest.perIteration() / size;
        firstPerM.putIfAbsent(app, perM);
        report.row(app, size, Files.size(data) / BYTES_PER_MIB, slaves, nr, limit >> 20, plainLimit >> 20, serial.cell(),
                serialAfter.cell(), baseline, perStyle[0].cell(), perStyle[1].cell(), perStyle[2].cell(), STYLES.get(best), ratio,
                target, target == null ? null : ratio != null && ratio <= target, perM / firstPerM.get(app),
                two == null ? null : two.cell(), two == null || two.perIteration() == null ? null : fastest.perIteration() / two.perIteration(),
                bare.cell(), serial.startup(), fastest.startup(), serial.setup(), fastest.setup(), serial.firstIteration(), fastest.firstIteration(),
                serialWall, fastest.wall(), wallRatio, wallTarget, wallTarget == null ? null : wallRatio != null && wallRatio <= wallTarget,
                serial.cpu(), fastest.cpu(), serial.readMB(), serial.writtenMB(), fastest.readMB(),
                fastest.writtenMB(), serial.peakMiB(), fastest.peakMiB());
        report.save();
        deleteAll(out.resolveSibling(out.getFileName() + "-serial"), out.resolveSibling(out.getFileName() + "-mpi"),
                out.resolveSibling(out.getFileName() + "-serial.users"), out.resolveSibling(out.getFileName() + "-serial.items"),
                out.resolveSibling(out.getFileName() + "-mpi.users"), out.resolveSibling(out.getFileName() + "-mpi.items"));
    }

    /** The mean of the two figures, the one that exists if the other run failed, or null. */
    private static Double mean(Double a, Double b) {
        if (a == null || b == null) {
            return a == null ? b : a;
        }
        return (a + b) / 2;
    }

    /** Runs a plain JVM (serial or bare) under {@code limit} with that much heap allowed. */
    private Run plain(long limit, Class<?> main, List<String> args) {
        LimitedJvm.Outcome o = LimitedJvm.run(limit, cap, List.of(maxHeap(limit), PLAIN_YOUNG_GENERATION), main,
                args.toArray(String[]::new));
        Matcher m = timing(o.stdout());
        if (o.exitCode() == null || o.exitCode() != 0 || m == null) {
            return Run.failed(o.describe() + " after " + Math.round(o.wallSeconds()) + " s");
        }
        return Run.of(m, o.wallSeconds(), o.io(), Double.parseDouble(m.group(4)));
    }

    /** The -Xmx of a JVM under {@code limit}: see NON_HEAP_BYTES. */
    private static String maxHeap(long limit) {
        return "-Xmx" + ((limit - NON_HEAP_BYTES) >> 20) + "m";
    }

    /** Runs the MPI program in {@code style}; a failure or the cap is an outcome, not an error. */
    private Run job(Class<?> main, int slaves, int nr, long limit, String style, List<String> args) {
        List<Object> all = new ArrayList<>(args);
        all.add("--style");
        all.add(style);
        List<String> options = new ArrayList<>(memoryLimitOptions(limit));
        // The option replaces the defaults. The heap goes up to the limit less what a JVM needs besides.
        options.add("--slave-jvm-opts=" + String.join(" ", ChildJvm.SLAVE_JVM_OPTIONS) + " " + maxHeap(limit));
        if (!style.equals(Styles.HEAP)) {
            options.add("--shrink-heap-on-park"); // the styles whose data leaves the heap (or never was on it) while parked
        }
        IoCounters before = IoCounters.now();
        JobResult job;
        try {
            job = JobRunner.job(main).ranks(slaves).running(nr)
                    .options(options.toArray(String[]::new))
                    .timeout(cap).args(all.toArray()).run();
        } catch (AssertionError e) {
            if (e.getMessage() == null || !e.getMessage().startsWith("job timed out")) {
                throw e;
            }
            return Run.failed("capped at " + cap.toMinutes() + " min");
        }
        IoCounters io = IoCounters.now().since(before);
        if (job.exitCode() != 0) {
            boolean oom = job.stderr().stream().anyMatch(l -> l.contains("OOM"));
            return Run.failed((oom ? "OOM-killed" : "failed") + " (exit " + job.exitCode() + ")");
        }
        Expect.successfulRun(job, slaves, nr);
        Matcher m = timing(job.stdout());
        if (m == null) {
            throw new AssertionError("no timing line\n" + job.describe());
        }
        double peak = job.requireStats().slaves().stream().mapToLong(Stats.Slave::peakRssBytes).max().orElse(0) / BYTES_PER_MIB;
        return Run.of(m, job.elapsed().toNanos() / 1e9, io, peak);
    }

    /**
     * Drops the input's pages from the page cache (GNU dd's posix_fadvise DONTNEED) before a run:
     * pages cached by the generator or an earlier run are charged to another cgroup, so a run
     * would read them for free whatever its limit.
     */
    private static void dropCache(Path file) {
        try {
            Process p = new ProcessBuilder("dd", "if=" + file, "iflag=nocache", "count=0", "status=none").inheritIO().start();
            if (p.waitFor() != 0) {
                throw new AssertionError("dd could not drop the page cache of " + file);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }

    private static Matcher timing(List<String> lines) {
        return lines.stream().map(TIMING::matcher).filter(Matcher::find).findFirst().orElse(null);
    }

    private static String loadAverage() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).split(" ");
            return f[0] + ", " + f[1] + ", " + f[2];
        } catch (IOException e) {
            return "unknown";
        }
    }

    private static void deleteInputs(Path dir) throws IOException {
        try (var files = Files.list(dir)) {
            for (Path p : files.toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    private static void deleteAll(Path... paths) throws IOException {
        for (Path p : paths) {
            Files.deleteIfExists(p);
        }
    }
}
