package mpi;

import io.bdmpi.slave.Received;

/** Where a received message goes: items of a datatype in a buffer ({@link Span}), or mpiJava's objects. */
@FunctionalInterface
interface MessageSlot {

    /**
     * Takes the message in, consuming its bytes exactly once.
     *
     * @return the message's status
     * @throws MPIException ERR_TRUNCATE when it does not fit, ERR_OTHER when it cannot be read; not
     *                      passed to any handler yet
     */
    Status take(String call, Received message) throws MPIException;
}
