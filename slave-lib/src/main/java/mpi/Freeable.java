package mpi;

/** An MPI object that the program releases explicitly: the garbage collector does not. */
public interface Freeable {

    /**
     * Releases the object; its handle becomes null.
     *
     * @throws MPIException if MPI is not running, or the object cannot be freed, under
     *                      {@code MPI.ERRORS_RETURN}
     */
    void free() throws MPIException;
}
