package mpi;

/**
 * An intracommunicator: a group of ranks that talk among themselves. {@code MPI.COMM_WORLD} and
 * {@code MPI.COMM_SELF} are the ones that exist so far.
 */
public class Intracomm extends Comm {

    Intracomm(int commId, String name) {
        super(commId, name);
    }
}
