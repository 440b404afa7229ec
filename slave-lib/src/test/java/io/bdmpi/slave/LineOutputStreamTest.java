package io.bdmpi.slave;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class LineOutputStreamTest {

    /** Records each write call separately, as a terminal would see them. */
    static final class Writes extends OutputStream {
        final List<String> writes = new ArrayList<>();

        @Override
        public void write(int b) {
            writes.add(String.valueOf((char) b));
        }

        @Override
        public void write(byte[] b, int off, int len) {
            writes.add(new String(b, off, len, StandardCharsets.UTF_8));
        }
    }

    @Test
    void shouldWriteEachWholeLineOnceWithItsPrefix() throws Exception {
        Writes w = new Writes();
        LineOutputStream out = new LineOutputStream(w, "[3] ");
        out.write("hel".getBytes(StandardCharsets.UTF_8));
        out.flush();
        out.write("lo\nsecond\nthi".getBytes(StandardCharsets.UTF_8));
        assertEquals(List.of("[3] hello\n", "[3] second\n"), w.writes);
        out.close();
        assertEquals("[3] thi\n", w.writes.get(2), "a partial line is ended at close");
    }

    @Test
    void shouldCutOverlongLinesInsteadOfHoldingThemForever() throws Exception {
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        LineOutputStream out = new LineOutputStream(sink, "");
        out.write(new byte[LineOutputStream.MAX_LINE + 10]);
        assertEquals(LineOutputStream.MAX_LINE, sink.size());
    }
}
