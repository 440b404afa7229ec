package mpi;

/** An intracommunicator. {@code COMM_WORLD} and {@code COMM_SELF} are the ones that exist so far. */
public class Intracomm extends Comm {

    Intracomm(int commId, String name) {
        super(commId, name);
    }
}
