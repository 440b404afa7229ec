package io.bdmpi.tests.io;

import io.bdmpi.master.internode.MpiAbi;
import io.bdmpi.tests.programs.io.FileIo;
import io.bdmpi.tests.support.Expect;
import io.bdmpi.tests.support.JobResult;
import io.bdmpi.tests.support.JobRunner;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * MPI-IO by every rank ({@link FileIo}): strided views written and read back with other views,
 * ordered and shared writes whose order is checked, {@code iWriteAt} completed by
 * {@code waitAll}, error classes; one and several slaves running, one node and two (over MPICH).
 * The directory keeps exactly the files the program keeps: no probe or delete-on-close file.
 */
class FileIoTest {

    @TempDir
    Path dir;

    @ParameterizedTest(name = "-nn {0} -ns {1} -nr {2}")
    @CsvSource({"1,1,1", "1,4,1", "1,4,3", "2,2,1", "2,3,2"})
    void everyRankDoesItsOwnIo(int nodes, int perNode, int running) throws IOException {
        JobRunner job = JobRunner.job(FileIo.class).nodes(nodes).ranks(perNode).running(running)
                .args(dir.toString());
        if (nodes > 1) {
            job.mpi(MpiAbi.MPICH);
        }
        JobResult r = job.run();
        Expect.successfulRun(r, nodes, perNode, running);
        Expect.okFromEveryRank(r, "FileIo", nodes * perNode);
        try (Stream<Path> files = Files.list(dir)) {
            Expect.that(r, files.map(p -> p.getFileName().toString()).sorted().toList()
                    .equals(List.of("nonblocking", "ordered", "shared", "strided")), "files left in " + dir);
        }
    }
}
