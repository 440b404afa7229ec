package io.bdmpi.ooc;

import java.lang.reflect.Field;
import java.nio.ByteBuffer;

/**
 * Unmaps a mapped buffer, or frees a direct one, at once ({@code sun.misc.Unsafe.invokeCleaner},
 * JDK 9+, no JVM flags needed) instead of whenever the garbage collector finds it: a closed array
 * frees its address space and lets its file go. The buffer must not be used afterwards.
 */
public final class Unmapper {

    private static final sun.misc.Unsafe UNSAFE = unsafe();

    private Unmapper() {
    }

    /**
     * @param mapped a buffer from {@code FileChannel.map} or {@code ByteBuffer.allocateDirect}
     *               itself (not a slice or duplicate of one)
     */
    public static void unmap(ByteBuffer mapped) {
        if (UNSAFE != null) {
            UNSAFE.invokeCleaner(mapped);
        }
    }

    private static sun.misc.Unsafe unsafe() {
        try {
            Field f = sun.misc.Unsafe.class.getDeclaredField("theUnsafe");
            f.setAccessible(true);
            return (sun.misc.Unsafe) f.get(null);
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null; // The garbage collector unmaps it later.
        }
    }
}
