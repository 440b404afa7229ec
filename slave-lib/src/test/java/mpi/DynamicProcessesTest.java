package mpi;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertTrue;

/** Dynamic processes are out of scope: every call exists (programs compile) and says so. */
class DynamicProcessesTest extends WithMaster {

    private static void refused(org.junit.jupiter.api.function.Executable call) {
        MPIException e = assertError(MPI.ERR_UNSUPPORTED_OPERATION, call);
        assertTrue(e.getMessage().contains("dynamic processes"), e.getMessage());
    }

    @Test
    void everyDynamicProcessCallRaisesUnsupportedOperation() {
        Intracomm world = MPI.COMM_WORLD;
        refused(() -> world.spawn("prog", new String[0], 2, MPI.INFO_NULL, 0, new int[2]));
        refused(() -> world.spawnMultiple(new String[] {"a"}, new String[][] {{}}, new int[] {1},
                new Info[] {MPI.INFO_NULL}, 0, new int[1]));
        refused(Intracomm::openPort);
        refused(() -> Intracomm.openPort(MPI.INFO_NULL));
        refused(() -> Intracomm.closePort("port"));
        refused(() -> world.accept("port", 0));
        refused(() -> world.connect("port", MPI.INFO_NULL, 0));
        refused(() -> Intracomm.publishName("service", "port"));
        refused(() -> Intracomm.unpublishName("service", MPI.INFO_NULL, "port"));
        refused(() -> Intracomm.lookupName("service"));
    }

    @Test
    void aProcessStartedByBdmpiexecHasNoParent() throws MPIException {
        assertTrue(Intercomm.getParent().isNull());
    }
}
