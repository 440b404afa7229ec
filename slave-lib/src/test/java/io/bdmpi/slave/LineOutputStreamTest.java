package io.bdmpi.slave;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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

    /** Each piece of a long line is a line of its own, so that another rank's line cannot join it. */
    @Test
    void shouldEndEachPieceOfALongLineAsALineWithItsPrefix() throws Exception {
        Writes w = new Writes();
        LineOutputStream out = new LineOutputStream(w, "[12] ");
        String line = "x".repeat(2 * LineOutputStream.MAX_LINE + 100);
        out.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        assertEquals(3, w.writes.size());
        StringBuilder joined = new StringBuilder();
        for (String piece : w.writes) {
            assertTrue(piece.startsWith("[12] ") && piece.endsWith("\n"), piece.substring(0, 10));
            assertTrue(piece.length() <= LineOutputStream.MAX_LINE);
            joined.append(piece, "[12] ".length(), piece.length() - 1);
        }
        assertEquals(line, joined.toString());
    }

    /** A cut never splits the bytes of one UTF-8 character between two pieces. */
    @Test
    void shouldNotCutACharacterInTwo() throws Exception {
        for (String character : List.of("\u00e9", "\u20ac", "\ud83d\ude00")) { // 2, 3 and 4 bytes
            for (int shift = 0; shift < 4; shift++) {
                Writes w = new Writes();
                LineOutputStream out = new LineOutputStream(w, "");
                String line = "a".repeat(LineOutputStream.MAX_LINE - 3 - shift) + character.repeat(4);
                out.write((line + "\n").getBytes(StandardCharsets.UTF_8));
                assertEquals(2, w.writes.size());
                assertTrue(w.writes.stream().noneMatch(p -> p.contains("\ufffd")), "a character cut in two");
                assertEquals(line, String.join("", w.writes).replace("\n", ""));
            }
        }
    }
}
