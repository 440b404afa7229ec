package io.bdmpi.launcher;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The MPI library's lines about masters it ended: UCX's fatal lines as copied from real runs,
 * MPICH's Abort line in the format MPICH prints it (no run here produced one).
 */
class MpiCasualtiesTest {

    @Test
    void ucxsFailedSingleCopyReadNamesTheCasualtyAndTheDeadProcess() {
        MpiCasualties c = new MpiCasualties();
        c.read("[vm:10385:0:10462]      cma_ep.c:81   process_vm_readv(pid=10382 {0x7fa423c00000,524288}-->"
                + "{0x7fcd33a00000,524288}) returned -1: No such process");
        assertTrue(c.isCasualty(2, 10385), "the process that printed the fatal line");
        assertTrue(c.namedDead(10382), "the process it could not read");
        assertFalse(c.isCasualty(1, 10382));
        assertFalse(c.namedDead(10385));
    }

    /** A four-digit pid is padded: {@code [vm:5034 :0:5034]}. */
    @Test
    void aShortPidIsPaddedInTheFatalLine() {
        MpiCasualties c = new MpiCasualties();
        c.read("[vm:5034 :0:5034]      cma_ep.c:81   process_vm_readv(pid=5033 {0x7f9b29a4c010,524288}-->"
                + "{0x7f9d0bdcd010,524288}) returned -1: No such process");
        assertTrue(c.isCasualty(0, 5034));
        assertTrue(c.namedDead(5033));
    }

    @Test
    void mpichsAbortNamesTheRankThatIsTheNode() {
        MpiCasualties c = new MpiCasualties();
        c.read("Abort(15) on node 2 (rank 2 in comm 0): Fatal error in internal_Recv: Other MPI error");
        assertTrue(c.isCasualty(2, -1));
        assertFalse(c.isCasualty(1, -1));
    }

    /** UCX's other log lines begin with a time stamp; a program's own output names nobody. */
    @Test
    void otherLinesNameNobody() {
        MpiCasualties c = new MpiCasualties();
        c.read("[1764216000.123456] [vm:4242 :0]     ucp_context.c:1082 UCX  WARN  transport 'cma' is not available");
        c.read("Abort(1) on node 0 (rank 0 in comm 2): application called MPI_Abort");
        c.read("rank 3 read pid=77 No such process");
        assertFalse(c.isCasualty(0, 4242));
        assertFalse(c.namedDead(77));
    }
}
