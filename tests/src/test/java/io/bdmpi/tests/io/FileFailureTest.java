package io.bdmpi.tests.io;

import io.bdmpi.master.internode.MpiAbi;
import io.bdmpi.tests.programs.io.FileCrash;
import io.bdmpi.tests.programs.io.FileVisibility;
import io.bdmpi.tests.support.Expect;
import io.bdmpi.tests.support.JobResult;
import io.bdmpi.tests.support.JobRunner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * MPI-IO where it must fail cleanly: a node-local file opened on several nodes is refused with
 * {@code ERR_FILE} (over MPICH, two nodes), and a job that dies with files open leaves only the
 * file it was told to keep (the harness checks the rest: processes, work directory, shared memory).
 */
class FileFailureTest {

    @TempDir
    Path dir;

    @Test
    void aNodeLocalFileIsRefusedOnSeveralNodes() throws IOException {
        Files.createDirectories(dir.resolve("node0"));
        Files.createDirectories(dir.resolve("node1"));
        JobResult r = JobRunner.job(FileVisibility.class).nodes(2).ranks(2).running(1).mpi(MpiAbi.MPICH)
                .args(dir.toString()).run();
        Expect.successfulRun(r, 2, 2, 1);
        Expect.okFromEveryRank(r, "FileVisibility", 4);
        Expect.that(r, r.stdout().stream().anyMatch(l -> l.contains("is not visible on node 1")),
                "the refusal names the node that does not see the file");
        for (String node : List.of("node0", "node1")) {
            try (Stream<Path> files = Files.list(dir.resolve(node))) {
                List<String> left = files.map(p -> p.getFileName().toString()).toList();
                Expect.that(r, left.equals(List.of("data")) && Files.size(dir.resolve(node).resolve("data")) == 1,
                        "only the program's own one-byte file is left in " + node + ": " + left);
            }
        }
    }

    @ParameterizedTest(name = "-nn {0}")
    @ValueSource(ints = {1, 2})
    void aJobThatDiesLeavesOnlyTheFileItWasToldToKeep(int nodes) throws IOException {
        JobRunner job = JobRunner.job(FileCrash.class).nodes(nodes).ranks(4 / nodes).running(2).args(dir.toString());
        if (nodes > 1) {
            job.mpi(MpiAbi.MPICH);
        }
        JobResult r = job.run();
        r.assertFailed();
        Expect.that(r, r.stdout().stream().noneMatch(l -> l.contains("UNEXPECTED")), "a rank got past the barrier");
        try (Stream<Path> files = Files.list(dir)) {
            List<String> left = files.map(p -> p.getFileName().toString()).sorted().toList();
            Expect.that(r, left.equals(List.of("kept")), "files left in " + dir + ": " + left);
        }
        Expect.that(r, Files.size(dir.resolve("kept")) == 4L << 16, "every rank's part of the kept file was written");
    }
}
