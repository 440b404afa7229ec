package mpi;

/**
 * The buffered-send space of this process ({@code MPI.attachBuffer}), with MPI's rules on it.
 *
 * <p>The master buffers every send and owns a message as soon as the send returns, so a message
 * never occupies the attached space after its {@code bSend} (or {@code ibSend}, or start of a
 * {@code bSendInit} request) returns, and {@code detachBuffer} never waits. What a correct program
 * can observe is kept: a buffered send needs space attached, and at least
 * {@code count * size of one item + MPI.BSEND_OVERHEAD} bytes of it, or it is an
 * {@code MPI.ERR_BUFFER} error; a second attach without a detach, and a detach with nothing
 * attached, are {@code MPI.ERR_BUFFER} errors too (of {@code MPI.COMM_WORLD}'s handler). The
 * array's contents are never touched.
 */
final class BsendSpace {

    private static byte[] attached;

    private BsendSpace() {
    }

    static synchronized void attach(byte[] buffer) throws MPIException {
        String call = "MPI_Buffer_attach";
        Session.enter(call);
        if (buffer == null) {
            throw MPI.COMM_WORLD.handle(MPIException.of(MPI.ERR_BUFFER, call + ": null buffer"));
        }
        if (attached != null) {
            throw MPI.COMM_WORLD.handle(MPIException.of(MPI.ERR_BUFFER, call + ": a buffer of " + attached.length
                    + " bytes is attached already: detach it first"));
        }
        attached = buffer;
    }

    static synchronized byte[] detach() throws MPIException {
        String call = "MPI_Buffer_detach";
        Session.enter(call);
        if (attached == null) {
            throw MPI.COMM_WORLD.handle(MPIException.of(MPI.ERR_BUFFER, call + ": no buffer is attached"));
        }
        byte[] b = attached;
        attached = null;
        return b;
    }

    /**
     * Checks that a buffered send of {@code count} items of {@code type} fits the attached space.
     *
     * @throws MPIException ERR_BUFFER when it does not; not passed to any handler yet
     */
    static synchronized void check(String call, int count, Datatype type) throws MPIException {
        long needed = (long) count * type.byteSize() + MPI.BSEND_OVERHEAD;
        if (attached == null) {
            throw MPIException.of(MPI.ERR_BUFFER, call + ": no buffer attached for a buffered send "
                    + "(MPI.attachBuffer with at least " + needed + " bytes)");
        }
        if (needed > attached.length) {
            throw MPIException.of(MPI.ERR_BUFFER, call + ": a buffered send of " + needed + " bytes (with "
                    + MPI.BSEND_OVERHEAD + " of overhead) does not fit the attached buffer of " + attached.length + " bytes");
        }
    }

    /** Forgets the attached buffer; only for unit tests, which run many MPI lives in one JVM. */
    static synchronized void reset() {
        attached = null;
    }
}
