package mpi;

/**
 * An MPI error. An exception raised for a failing MPI call (under {@code MPI.ERRORS_RETURN})
 * carries its error class ({@code MPI.ERR_*}) as both code and class, and the error string as its
 * message. Exceptions made in Java, such as "MPI is not initialized.", report 0 for both.
 */
public final class MPIException extends Exception {

    private static final long serialVersionUID = 1L;

    /** The MPI error code, or 0. */
    private final int errorCode;
    /** The MPI error class, or 0. */
    private final int errorClass;

    /**
     * An error found in Java, not by MPI: code and class are 0.
     *
     * @param message the error string
     */
    public MPIException(String message) {
        this(0, 0, message);
    }

    /**
     * Wraps another exception, taking over its stack trace; code and class are 0.
     *
     * @param cause the exception to wrap
     */
    public MPIException(Throwable cause) {
        super(cause);
        setStackTrace(cause.getStackTrace());
        this.errorCode = 0;
        this.errorClass = 0;
    }

    /**
     * An MPI error with its code and class.
     *
     * @param code the error code
     * @param clazz the error class
     * @param message the error string
     */
    protected MPIException(int code, int clazz, String message) {
        super(message);
        this.errorCode = code;
        this.errorClass = clazz;
    }

    /** An MPI error whose code is its class, as every error raised by this package. */
    static MPIException of(int errorClass, String message) {
        return new MPIException(errorClass, errorClass, message);
    }

    /**
     * The MPI error code (here equal to the class), or 0 for errors found in Java.
     *
     * @return the error code
     */
    public int getErrorCode() {
        return errorCode;
    }

    /**
     * The MPI error class, to compare with {@code MPI.ERR_*}, or 0 for errors found in Java.
     *
     * @return the error class
     */
    public int getErrorClass() {
        return errorClass;
    }

    // ================================================================ mpiJava 1.2 (MPJ Express) adapters

    /**
     * mpiJava 1.2: an exception without a message.
     */
    public MPIException() {
        this((String) null);
    }
}
