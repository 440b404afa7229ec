package io.bdmpi.tests;

import io.bdmpi.tests.programs.startup.ArchiveUse;
import io.bdmpi.tests.programs.startup.FirstPark;
import io.bdmpi.tests.support.Expect;
import io.bdmpi.tests.support.JobResult;
import io.bdmpi.tests.support.JobRunner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The slaves' class-data archive: on a clean cache (as CI on a fresh clone) the first job makes
 * one and its slaves map it over the JDK's; the next job maps the same file without making another,
 * and its slaves load from the archives the JDK's classes and bdmpi's, including those that a
 * slave's runtime makes at MPI.Init (its park watch, and the JDK's selector it waits for replies in);
 * the program's own class path (here a directory, which an archive cannot hold) comes after
 * bdmpi's jars. On several nodes the masters, started by bdmpiexec through MPI, map an archive of their own.
 * The archive also holds what a rank makes cold between its {@code MPI.Init} and its first park
 * (the lambdas of its store, of libc's binding, of a collective and of its park watch), which at
 * {@code -nr 1} every rank paid one after another.
 */
class ClassDataArchiveTest {

    @TempDir
    Path cache;
    @TempDir
    Path classLoads;

    @Test
    void theFirstJobMakesTheArchiveAndEveryJobsSlavesMapIt() throws IOException, InterruptedException {
        Path leftOver = leftOverPartialArchive();
        Path archive = mappedByAll(run(), 3);
        assertFalse(Files.exists(leftOver), "the training removed the partial archive of a master that is gone: " + leftOver);
        assertTrue(archive.startsWith(cache.resolve("bdmpi")), "the archive is in the cache: " + archive);
        FileTime made = Files.getLastModifiedTime(archive);

        Path again = mappedByAll(run("--slave-jvm-opts", "-Xlog:class+load=info:file=" + classLoads.resolve("slave-%p.log")), 3);
        assertEquals(archive, again, "the second job maps the same archive");
        assertEquals(made, Files.getLastModifiedTime(archive), "the second job did not make it again");
        try (Stream<Path> files = Files.list(cache.resolve("bdmpi"))) {
            List<String> all = files.map(f -> f.getFileName().toString()).sorted().toList();
            assertTrue(all.size() == 2 && all.get(0).matches("jffi-[0-9]+-[0-9]+") && all.get(1).equals(archive.getFileName().toString()),
                    "one archive and the slaves' copy of jffi's native library, nothing else, in the cache: " + all);
        }
        List<Path> logs;
        try (Stream<Path> files = Files.list(classLoads)) {
            logs = files.toList();
        }
        assertEquals(3, logs.size(), "one class-load log per slave: " + logs);
        for (Path log : logs) {
            String loads = Files.readString(log);
            for (String c : List.of("java.lang.Object", "java.nio.channels.SocketChannel", "io.bdmpi.slave.SlaveMain", "mpi.MPI",
                    "io.bdmpi.slave.ParkWatch", "sun.nio.ch.EPollSelectorImpl")) {
                assertTrue(loads.contains(" " + c + " source: shared objects file"), log + " loads " + c + " from the archive");
            }
            assertTrue(loads.contains(" " + ArchiveUse.class.getName() + " source: file:"),
                    log + " loads the program's own class from its class path");
            List<String> beforeProgram = loads.lines().takeWhile(l -> !l.contains(" " + ArchiveUse.class.getName() + " ")).toList();
            assertTrue(beforeProgram.stream().noneMatch(l -> l.contains("__JVM_LookupDefineClass__") || l.contains(" java.lang.ProcessHandleImpl ")),
                    log + ": until the program starts, the slave generates no class and starts no process reaper");
        }
    }

    @Test
    void theMastersOfSeveralNodesMapTheirOwnArchive() throws IOException {
        JobResult r = JobRunner.job(ArchiveUse.class).nodes(2).ranks(2).running(1).environment("XDG_CACHE_HOME", cache.toString())
                .run().assertSucceeded();
        List<String> lines = r.stdoutMatching("ArchiveUse rank [0-9]+ master maps .*/bdmpi/master-[0-9a-f]+\\.jsa");
        Expect.that(r, lines.size() == 4, "the master of every slave maps a bdmpi class-data archive");
        List<String> files = lines.stream().map(l -> l.substring(l.indexOf(" maps ") + 6)).distinct().toList();
        Expect.that(r, files.size() == 1, "both masters map the same archive: " + files);
        Path archive = Path.of(files.get(0));
        assertTrue(archive.startsWith(cache.resolve("bdmpi")), "the archive is in the cache: " + archive);
        FileTime made = Files.getLastModifiedTime(archive);

        JobResult again = JobRunner.job(ArchiveUse.class).nodes(2).ranks(2).running(1).environment("XDG_CACHE_HOME", cache.toString())
                .run().assertSucceeded();
        Expect.that(again, again.stdoutMatching("ArchiveUse rank [0-9]+ master maps " + archive).size() == 4,
                "the next job's masters map the same archive");
        assertEquals(made, Files.getLastModifiedTime(archive), "the second job did not make it again");
    }

    @Test
    void aRanksFirstRunAndParkFindTheirLambdasInTheArchive() throws IOException {
        JobResult r = JobRunner.job(FirstPark.class).ranks(2).running(1).args(2)
                .options("--slave-jvm-opts", "-Xlog:class+load=info:file=" + classLoads.resolve("slave-%p.log"))
                .environment("XDG_CACHE_HOME", cache.toString()).run();
        Expect.successfulRun(r, 2, 1);
        Expect.that(r, r.stdoutMatching("FirstPark rank [0-9]+ init [0-9]+ block [0-9]+").size() == 2, "both ranks ran to the end");
        List<Path> logs;
        try (Stream<Path> files = Files.list(classLoads)) {
            logs = files.toList();
        }
        assertEquals(2, logs.size(), "one class-load log per slave: " + logs);
        for (Path log : logs) {
            List<String> loads = Files.readAllLines(log);
            for (String c : List.of("io.bdmpi.ooc.ArrayStore", "io.bdmpi.ooc.Libc", "mpi.Comm", "io.bdmpi.slave.ParkWatch")) {
                String lambda = " " + c + "$$Lambda$";
                assertTrue(loads.stream().anyMatch(l -> l.contains(lambda)), log + " makes a lambda of " + c);
                assertTrue(loads.stream().filter(l -> l.contains(lambda)).findFirst().orElseThrow()
                                .contains(" source: shared objects file"),
                        log + " loads the first lambda of " + c + " from the archive");
            }
        }
    }

    /**
     * A partial archive as a master killed while it trained leaves it: named after a pid that no
     * process has any more.
     */
    private Path leftOverPartialArchive() throws IOException, InterruptedException {
        Process gone = new ProcessBuilder("true").start();
        gone.waitFor();
        Path partial = cache.resolve("bdmpi").resolve("slave-0123456789abcdef01234567.jsa." + gone.pid() + ".part");
        Files.createDirectories(partial.getParent());
        Files.writeString(partial, "cut short");
        return partial;
    }

    private JobResult run(String... options) {
        JobResult r = JobRunner.job(ArchiveUse.class).ranks(3).running(2).options(options)
                .environment("XDG_CACHE_HOME", cache.toString()).run();
        Expect.successfulRun(r, 3, 2);
        Expect.that(r, r.stderr().isEmpty(), "stderr should be empty");
        return r;
    }

    /** The bdmpi archive that every one of {@code ranks} slaves maps (beside the JDK's). */
    private static Path mappedByAll(JobResult r, int ranks) {
        List<String> lines = r.stdoutMatching("ArchiveUse rank [0-9]+ maps .*/bdmpi/slave-[0-9a-f]+\\.jsa");
        Expect.that(r, lines.size() == ranks, "every slave maps a bdmpi class-data archive");
        List<String> files = lines.stream().map(l -> l.substring(l.indexOf(" maps ") + 6)).distinct().toList();
        Expect.that(r, files.size() == 1, "all map the same archive: " + files);
        Expect.that(r, r.stdoutMatching("ArchiveUse rank [0-9]+ maps .*/lib/server/classes\\.jsa").size() == ranks,
                "every slave maps the JDK's archive under it");
        return Path.of(files.get(0));
    }
}
