package mpi;

import io.bdmpi.protocol.ElementType;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The MINLOC/MAXLOC pair types, their accessors, and user-defined structs: no MPI needed. */
class PairTypesTest {

    @Test
    void shouldLayPairsOutAsC() throws Exception {
        Datatype[] pairs = {MPI.INT2, MPI.SHORT_INT, MPI.LONG_INT, MPI.FLOAT_INT, MPI.DOUBLE_INT};
        String[] names = {"MPI_2INT", "MPI_SHORT_INT", "MPI_LONG_INT", "MPI_FLOAT_INT", "MPI_DOUBLE_INT"};
        ElementType[] wire = {ElementType.INT2, ElementType.SHORT_INT, ElementType.LONG_INT, ElementType.FLOAT_INT,
            ElementType.DOUBLE_INT};
        int[] extents = {8, 8, 16, 8, 16};
        int[] sizes = {8, 6, 12, 8, 12};
        int[] trueExtents = {8, 8, 12, 8, 12};
        for (int i = 0; i < pairs.length; i++) {
            Datatype t = pairs[i];
            assertEquals(names[i], t.getName());
            assertEquals(Datatype.Base.BYTE, t.base, "byte-based");
            assertEquals(extents[i], t.getExtent(), names[i]);
            assertEquals(extents[i], t.byteSize(), names[i]);
            assertEquals(sizes[i], t.getSize(), names[i]);
            assertEquals(trueExtents[i], t.getTrueExtent(), names[i]);
            assertEquals(0, t.getLb());
            assertSame(wire[i], t.element);
            assertEquals(wire[i].size, t.byteSize(), "the wire agrees on the size");
        }
        assertNull(MPI.PACKED.element, "nothing reduces packed bytes");
        assertSame(ElementType.INT, MPI.INT.element);
    }

    @Test
    void shouldPutValuesAndIndicesAtTheirOffsets() throws Exception {
        ByteBuffer b = MPI.newByteBuffer(48);
        DoubleInt.Data d = MPI.doubleInt.getData(b, 2);
        d.putValue(2.75);
        d.putIndex(6);
        assertEquals(2.75, b.getDouble(32));
        assertEquals(6, b.getInt(40));
        assertEquals(2.75, MPI.doubleInt.<DoubleInt.Data>getData(b, 2).getValue());
        assertEquals(16, MPI.doubleInt.getExtent());

        byte[] raw = new byte[16];
        ShortInt.Data s = MPI.shortInt.getData(raw, 1);
        s.putValue((short) -3);
        s.putIndex(1 << 20);
        ByteBuffer view = ByteBuffer.wrap(raw).order(ByteOrder.nativeOrder());
        assertEquals(-3, view.getShort(8));
        assertEquals(1 << 20, view.getInt(12), "the int after the short's padding");

        LongInt.Data l = MPI.longInt.getData(new byte[16]);
        l.putValue(Long.MAX_VALUE);
        assertEquals(Long.MAX_VALUE, l.getValue());
        FloatInt.Data f = MPI.floatInt.getData(MPI.newByteBuffer(8));
        f.putValue(0.5f);
        f.putIndex(-1);
        assertEquals(0.5f, f.getValue());
        assertEquals(-1, f.getIndex());
        Int2.Data i2 = MPI.int2.getData(MPI.newByteBuffer(8));
        i2.putIndex(3);
        assertEquals(3, i2.getBuffer().getInt(4));
    }

    @Test
    void shouldReadNativeOrderWhateverTheBuffersOrder() throws Exception {
        ByteBuffer bigEndian = ByteBuffer.allocate(8).order(ByteOrder.BIG_ENDIAN);
        MPI.int2.<Int2.Data>getData(bigEndian).putValue(1);
        assertEquals(1, bigEndian.duplicate().order(ByteOrder.nativeOrder()).getInt(0));
        assertEquals(ByteOrder.BIG_ENDIAN, bigEndian.order(), "the program's buffer is left as it was");
    }

    @Test
    void shouldGiveAStructTypeThatIsNotThePairType() throws Exception {
        Datatype t = MPI.doubleInt.getType();
        assertNotSame(MPI.DOUBLE_INT, t);
        assertEquals(16, t.getExtent());
        assertNull(t.element, "no predefined operator reduces it");
        assertSame(t, MPI.doubleInt.getType());
    }

    /** A user's struct: {byte; double[2]; int} is 1 + 7 padding + 16 + 4 + 4 padding bytes in C. */
    private static final class Particle extends Struct {
        final int tag = addByte();
        final int position = addDouble(2);
        final int id = addInt();

        @Override
        protected Data newData() {
            return new Data();
        }

        final class Data extends Struct.Data {
            double x() {
                return getDouble(position, 0);
            }

            double y() {
                return getDouble(position, 1);
            }

            void set(byte t, double x, double y, int i) {
                putByte(tag, t);
                putDouble(position, 0, x);
                putDouble(position, 1, y);
                putInt(id, i);
            }
        }
    }

    @Test
    void shouldAlignTheFieldsOfUserStructs() throws Exception {
        Particle p = new Particle();
        assertEquals(0, p.tag);
        assertEquals(8, p.position);
        assertEquals(24, p.id);
        assertEquals(32, p.getExtent());
        ByteBuffer b = MPI.newByteBuffer(64);
        Particle.Data second = p.getData(b, 1);
        second.set((byte) 7, 1.5, -2.5, 42);
        assertEquals(7, b.get(32));
        assertEquals(1.5, b.getDouble(40));
        assertEquals(-2.5, second.y());
        assertEquals(42, b.getInt(56));
        assertEquals(1.5, second.getBuffer().getDouble(8), "the buffer from the item's start");
        assertEquals(32, p.getType().getExtent());
        assertThrows(IllegalStateException.class, () -> p.addInt(), "fields are fixed once used");
    }
}
