package io.bdmpi.bench;

import io.bdmpi.tests.support.Expect;
import io.bdmpi.tests.support.JobResult;
import io.bdmpi.tests.support.JobRunner;
import io.bdmpi.tests.support.Stats;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static io.bdmpi.bench.Report.column;

/**
 * Start-up time and idle memory of S slaves: the wall time of a whole job whose ranks only start,
 * report their RSS, park in a barrier (where rank 0 measures the others' PSS and RSS) and finalize
 * ({@link Idle}), against S plain JVMs started at once that only report their RSS and exit
 * ({@link PlainJvm}); and against S plain JVMs that also connect to a Unix-domain socket through the
 * JDK's channels, as every slave must to reach its master: the floor of a slave's start-up over that
 * channel.
 *
 * <p>Properties: {@code bench.startup.sizes} (S values, "16,64,256"), {@code bench.startup.running}
 * (-nr, 2: the cores of the reference machine).
 */
@Tag("benchmark")
class StartupBenchmarkTest {

    private static final double KIB_PER_MIB = 1024;
    private static final double BYTES_PER_MIB = 1024 * 1024;
    /** 256 JVMs on 2 cores take tens of seconds; leave room for a slow, busy machine. */
    private static final Duration JOB_TIMEOUT = Duration.ofMinutes(10);
    private static final long PLAIN_JVM_TIMEOUT_SECONDS = 600;
    /** Most plain JVMs alive at once. */
    private static final int PLAIN_WAVE = 256;

    private final List<Integer> sizes = BenchConfig.integers("bench.startup.sizes", List.of(16, 64, 256), List.of(4, 16));
    private final int running = BenchConfig.integer("bench.startup.running", 2, 2);

    @Test
    void startupAndIdleMemory() {
        Report report = Report.of("startup", "Start-up time and idle RSS of S slaves",
                column("slaves", "S"),
                column("jobWallSeconds", "bdmpi job wall (s)"),
                column("jobMsPerSlave", "ms / slave"),
                column("plainWallSeconds", "S plain JVMs wall (s, baseline)"),
                column("plainMsPerJvm", "ms / plain JVM"),
                column("ratio", "ratio"),
                column("connectingWallSeconds", "S connecting JVMs wall (s, floor)"),
                column("connectingMsPerJvm", "ms / connecting JVM"),
                column("floorRatio", "floor ratio (connecting / plain)"),
                column("ratioToFloor", "ratio to the floor (job / connecting)"),
                column("readySeconds", "all parked (s)"),
                column("parkedPssMeanMiB", "parked slave PSS mean (MiB)"),
                column("parkedPssMaxMiB", "parked slave PSS max (MiB)"),
                column("parkedRssMeanMiB", "parked slave RSS mean (MiB)"),
                column("idleRssMeanMiB", "slave RSS at Init mean (MiB)"),
                column("peakRssMeanMiB", "slave peak RSS mean (MiB)"),
                column("peakRssMaxMiB", "slave peak RSS max (MiB)"),
                column("plainRssMeanMiB", "plain JVM RSS mean (MiB)"));
        for (int slaves : sizes) {
            int nr = Math.min(running, slaves);
            long startMs = System.currentTimeMillis();
            JobResult job = JobRunner.job(Idle.class).ranks(slaves).running(nr).timeout(JOB_TIMEOUT).run();
            Stats stats = Expect.successfulRun(job, slaves, nr);
            List<Measured> idle = Measured.from(job.stdout(), "Idle");
            Expect.that(job, idle.size() == slaves, "expected " + slaves + " Idle lines, got " + idle.size());
            List<Measured> parked = Measured.from(job.stdout(), "IdleParked");
            Expect.that(job, parked.size() == slaves - 1, "expected " + (slaves - 1) + " IdleParked lines, got " + parked.size());
            double readySeconds = (Measured.from(job.stdout(), "IdleReady").get(0).get("epochMs") - startMs) / 1e3;
            Samples parkedPss = Samples.of(parked.stream().map(m -> m.get("pssKiB") / KIB_PER_MIB).toList());
            Samples parkedRss = Samples.of(parked.stream().map(m -> m.get("rssKiB") / KIB_PER_MIB).toList());
            Samples idleRss = Samples.of(idle.stream().map(m -> m.get("rssKiB") / KIB_PER_MIB).toList());
            Samples peakRss = Samples.of(stats.slaves().stream().map(s -> s.peakRssBytes() / BYTES_PER_MIB).toList());
            double jobSeconds = seconds(job.elapsed());

            PlainRun plain = startPlainJvms(slaves);
            PlainRun connecting = startConnectingJvms(slaves);
            report.row(slaves, jobSeconds, jobSeconds * 1000 / slaves,
                    plain.wallSeconds(), plain.wallSeconds() * 1000 / slaves, jobSeconds / plain.wallSeconds(),
                    connecting.wallSeconds(), connecting.wallSeconds() * 1000 / slaves,
                    connecting.wallSeconds() / plain.wallSeconds(), jobSeconds / connecting.wallSeconds(),
                    readySeconds, parkedPss.mean(), parkedPss.max(), parkedRss.mean(), idleRss.mean(), peakRss.mean(),
                    peakRss.max(), plain.rssMiB().mean());
        }
        report.note("bdmpi job wall: from starting bdmpiexec (its own JVM included) until it exited, for a job of"
                        + " -ns S -nr " + running + " whose ranks do Init, print their VmRSS, barrier, Finalize.")
                .note("Baseline: S plain JVMs (the slaves' JVM options: " + String.join(" ", ChildJvm.SLAVE_JVM_OPTIONS)
                        + ") started at once from the test JVM (" + PLAIN_WAVE + " at a time), each printing its VmRSS and"
                        + " exiting; wall time until all have exited. Ratio = bdmpi job wall / baseline wall.")
                .note("Floor: the same, but each JVM first connects to a Unix-domain socket of the test JVM through the"
                        + " JDK's SocketChannel and sends one byte, as every slave does to reach its master (opening the"
                        + " JDK's Unix-domain channel initializes sun.nio.ch.UnixDomainSockets, which builds a SecureRandom)."
                        + " Floor ratio = floor wall / baseline wall: what no slave over that channel can go below.")
                .note("All parked: from starting bdmpiexec until rank 0 has heard from every other rank that it is about"
                        + " to park (start-up of the master and of every slave, and each rank's first turn on a running slot).")
                .note("Parked slave PSS and RSS: Pss and Rss of /proc/PID/smaps_rollup of every slave but rank 0, read by"
                        + " rank 0 while all others are parked in the barrier. PSS shares each page among the processes"
                        + " that map it (the JVM's code, the class-data archives), so S x PSS is what S parked slaves use.")
                .note("RSS at Init: VmRSS each rank read from /proc/self/status after MPI.Init. Peak RSS: VmHWM each"
                        + " slave reported at Finalize (the --stats peakRssBytes). MiB = 2^20 bytes.")
                .publish();
    }

    /** Wall time and RSS of S plain JVMs started at once. */
    private record PlainRun(double wallSeconds, Samples rssMiB) {
    }

    /** S plain JVMs that each connect to a socket this JVM accepts on, as {@link #startPlainJvms} starts them. */
    private static PlainRun startConnectingJvms(int count) {
        try (Acceptor acceptor = new Acceptor()) {
            return startPlainJvms(count, acceptor.path().toString());
        }
    }

    /**
     * S plain JVMs started at once, in waves of at most {@link #PLAIN_WAVE} (a thousand at once would
     * not fit the node), each given {@code args}.
     */
    private static PlainRun startPlainJvms(int count, String... args) {
        List<Double> rss = new ArrayList<>();
        long start = System.nanoTime();
        for (int started = 0; started < count; started += PLAIN_WAVE) {
            List<ChildJvm> jvms = new ArrayList<>();
            try {
                for (int i = started; i < Math.min(count, started + PLAIN_WAVE); i++) {
                    jvms.add(ChildJvm.start(PlainJvm.class, args));
                }
                for (ChildJvm jvm : jvms) {
                    String line = jvm.readLine();
                    jvm.awaitSuccess(PLAIN_JVM_TIMEOUT_SECONDS);
                    rss.add(Measured.of(line, "PlainJvm").get("rssKiB") / KIB_PER_MIB);
                }
            } finally {
                jvms.forEach(ChildJvm::close);
            }
        }
        return new PlainRun((System.nanoTime() - start) / 1e9, Samples.of(rss));
    }

    /** A Unix-domain socket in a directory of its own that takes one byte from each connection and closes it. */
    private static final class Acceptor implements AutoCloseable {

        private final Path dir;
        private final ServerSocketChannel server;
        private Thread thread;

        Acceptor() {
            try {
                dir = Files.createTempDirectory("bdmpi-startup-bench");
                server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            try {
                server.bind(UnixDomainSocketAddress.of(path()), PLAIN_WAVE);
            } catch (IOException e) {
                close();
                throw new UncheckedIOException(e);
            }
            thread = new Thread(this::serve, "startup-bench-acceptor");
            thread.setDaemon(true);
            thread.start();
        }

        Path path() {
            return dir.resolve("s");
        }

        private void serve() {
            ByteBuffer one = ByteBuffer.allocate(1);
            while (server.isOpen()) {
                try (SocketChannel jvm = server.accept()) {
                    one.clear();
                    jvm.read(one);
                } catch (IOException closedOrGone) {
                    // Closed by close(), or a JVM that went before its byte: the JVM's exit status tells.
                }
            }
        }

        @Override
        public void close() {
            try {
                server.close();
                if (thread != null) {
                    thread.join(10_000);
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                path().toFile().delete();
                dir.toFile().delete();
            }
        }
    }

    private static double seconds(Duration d) {
        return d.toNanos() / 1e9;
    }
}
