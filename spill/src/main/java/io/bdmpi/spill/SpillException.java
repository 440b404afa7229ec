package io.bdmpi.spill;

import java.io.IOException;

/** A spill file could not be written or read; the message names the directory or file and the size. */
public final class SpillException extends IOException {
    public SpillException(String message) {
        super(message);
    }

    public SpillException(String message, Throwable cause) {
        super(message, cause);
    }
}
