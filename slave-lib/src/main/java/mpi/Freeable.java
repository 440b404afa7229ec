package mpi;

/** An MPI object that the program releases explicitly: the garbage collector does not. */
public interface Freeable {

    /** Releases the object; its handle becomes null. */
    void free() throws MPIException;
}
