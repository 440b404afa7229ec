package io.bdmpi.master.internode;

/** An MPI call returned an error: names the call and gives the library's own message. */
public final class MpiException extends RuntimeException {

    MpiException(String message) {
        super(message);
    }
}
