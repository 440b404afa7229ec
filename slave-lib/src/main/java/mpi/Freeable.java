package mpi;

/** An MPI object that the program frees explicitly. */
public interface Freeable {
    void free() throws MPIException;
}
