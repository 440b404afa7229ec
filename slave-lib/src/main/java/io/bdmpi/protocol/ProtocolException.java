package io.bdmpi.protocol;

import java.io.IOException;

/** A frame that cannot be decoded: unknown type, bad length or truncated fields. */
public final class ProtocolException extends IOException {
    public ProtocolException(String message) {
        super(message);
    }
}
