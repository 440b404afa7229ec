package io.bdmpi.slave;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Writes whole lines only, each with one {@code write} call on the underlying stream, optionally
 * prefixed. Slaves share the user's terminal; one write per line (shorter than PIPE_BUF on a pipe)
 * keeps lines of different ranks from interleaving mid-line. A partial line waits for its newline,
 * for {@link #close()}, or for the buffer limit.
 */
public final class LineOutputStream extends OutputStream {

    /** A line longer than this is written in pieces rather than held without bound. */
    static final int MAX_LINE = 64 * 1024;

    private final OutputStream out;
    private final byte[] prefix;
    private byte[] line = new byte[256];
    private int length;

    public LineOutputStream(OutputStream out, String prefix) {
        this.out = out;
        this.prefix = prefix.getBytes(StandardCharsets.UTF_8);
        length = this.prefix.length;
        System.arraycopy(this.prefix, 0, line, 0, length);
    }

    @Override
    public synchronized void write(int b) throws IOException {
        append((byte) b);
    }

    @Override
    public synchronized void write(byte[] b, int off, int len) throws IOException {
        for (int i = off; i < off + len; i++) {
            append(b[i]);
        }
    }

    private void append(byte b) throws IOException {
        if (length == line.length) {
            line = Arrays.copyOf(line, line.length * 2);
        }
        line[length++] = b;
        if (b == '\n' || length >= MAX_LINE) {
            emit();
        }
    }

    private void emit() throws IOException {
        out.write(line, 0, length);
        out.flush();
        length = prefix.length;
    }

    /** Partial lines stay buffered: flushing them would let another rank's line cut in. */
    @Override
    public void flush() {
    }

    /** Writes any partial line, ended with a newline. */
    @Override
    public synchronized void close() throws IOException {
        if (length > prefix.length) {
            append((byte) '\n');
        }
        out.flush();
    }
}
