package mpi;

import io.bdmpi.ooc.ArrayStore;

import java.io.IOException;

/**
 * Data of this rank that can leave memory while the rank is parked, without swap: the entry to
 * {@link ArrayStore}. A BDMPI extension, beside {@link BDMPI}: it lives in package {@code mpi}
 * because it is tied to this process's MPI life (the store is in the job's work directory and
 * works between {@code Init} and {@code Finalize}), while the array types themselves are plain
 * data structures in package {@code io.bdmpi.ooc}, with no MPI in them.
 *
 * <pre>{@code
 * ArrayStore store = OutOfCore.store();
 * DoubleArray x = store.doubles("x", 500_000_000L, Residency.SEQUENTIAL); // 4 GB, off the heap
 * ...
 * comm.barrier();             // parked: x is released; resumed: x is read back in before barrier returns
 *
 * double[] y = ...;           // or the paper's "out-of-core" style with heap arrays:
 * store.save("y", y); y = null;
 * comm.barrier();
 * y = store.loadDoubles("y");
 * }</pre>
 */
public final class OutOfCore {

    private OutOfCore() {
    }

    /**
     * This rank's store of off-heap arrays and saved arrays; the same object on every call. Its
     * off-heap arrays are released when the rank parks in a blocking MPI call and prefetched when it
     * resumes, each as its {@link io.bdmpi.ooc.Residency} says. {@code Finalize} closes it.
     *
     * @return the store
     * @throws MPIException if MPI is not running, or the store cannot be made (MPI_ERR_OTHER)
     */
    public static ArrayStore store() throws MPIException {
        try {
            return Session.runtime().arrays();
        } catch (IOException e) {
            throw MPI.COMM_WORLD.handle(MPIException.of(MPI.ERR_OTHER, "bdmpi out-of-core store: " + e.getMessage()));
        }
    }
}
