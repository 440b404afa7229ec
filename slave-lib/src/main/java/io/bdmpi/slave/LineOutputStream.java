package io.bdmpi.slave;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Writes whole lines only, each with one {@code write} call on the underlying stream, optionally
 * prefixed. Slaves share the user's terminal; one write per line (shorter than PIPE_BUF on a pipe)
 * keeps lines of different ranks from interleaving mid-line. A partial line waits for its newline,
 * or for {@link #close()}; a line longer than {@link #MAX_LINE} goes out in pieces, each ended with a
 * newline (and prefixed) as a line of its own, so that no other rank's line can join it.
 */
public final class LineOutputStream extends OutputStream {

    /** Most bytes of one write, prefix and newline included: a longer line goes out in pieces rather than held without bound. */
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
        if (b != '\n' && length == MAX_LINE - 1) {
            cut();
        }
        if (length == line.length) {
            line = Arrays.copyOf(line, Math.min(line.length * 2, MAX_LINE));
        }
        line[length++] = b;
        if (b == '\n') {
            emit(length);
        }
    }

    /** Writes the line so far as a piece ended with a newline; a character cut short there starts the next piece. */
    private void cut() throws IOException {
        int end = lastWholeCharacterEnd();
        byte[] rest = Arrays.copyOfRange(line, end, length);
        line[end] = '\n';
        emit(end + 1);
        System.arraycopy(rest, 0, line, length, rest.length);
        length += rest.length;
    }

    /** The end of the line's last whole UTF-8 character (bytes that are not UTF-8 count as whole). */
    private int lastWholeCharacterEnd() {
        int i = length - 1;
        int continuations = 0;
        while (i > prefix.length && (line[i] & 0xC0) == 0x80 && continuations < 3) {
            i--;
            continuations++;
        }
        int lead = line[i] & 0xFF;
        int bytes = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1;
        return continuations + 1 < bytes ? i : length;
    }

    private void emit(int end) throws IOException {
        out.write(line, 0, end);
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
