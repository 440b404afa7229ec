package mpi;

/**
 * An MPI error. Exceptions raised for a failing MPI call carry its error class ({@code MPI.ERR_*})
 * as both code and class; exceptions made in Java (not from an MPI error) report 0 for both.
 */
public final class MPIException extends Exception {

    private static final long serialVersionUID = 1L;

    private final int errorCode;
    private final int errorClass;

    public MPIException(String message) {
        this(0, 0, message);
    }

    public MPIException(Throwable cause) {
        super(cause);
        setStackTrace(cause.getStackTrace());
        this.errorCode = 0;
        this.errorClass = 0;
    }

    protected MPIException(int code, int clazz, String message) {
        super(message);
        this.errorCode = code;
        this.errorClass = clazz;
    }

    static MPIException of(int errorClass, String message) {
        return new MPIException(errorClass, errorClass, message);
    }

    /** The MPI error code (here equal to the class), or 0. */
    public int getErrorCode() {
        return errorCode;
    }

    /** The MPI error class, to compare with {@code MPI.ERR_*}, or 0. */
    public int getErrorClass() {
        return errorClass;
    }
}
