package mpi;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.ToolProvider;
import java.io.StringWriter;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Both APIs compile unchanged against this package (snippets compiled with javax.tools), and the
 * points of docs/mpi-java-api.md §B7 are settled as docs/api.md says.
 */
class MpiJavaSourceTest {

    /** Where the snippets' classes go; JUnit removes it. */
    @TempDir
    Path out;

    private String compile(String className, String source) {
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        JavaFileObject file = new SimpleJavaFileObject(URI.create("string:///" + className + ".java"),
                JavaFileObject.Kind.SOURCE) {
            @Override
            public CharSequence getCharContent(boolean ignoreEncodingErrors) {
                return source;
            }
        };
        StringWriter errors = new StringWriter();
        boolean ok = javac.getTask(errors, null, null,
                List.of("-d", out.toString(), "-cp", System.getProperty("java.class.path")), null, List.of(file)).call();
        return ok ? "" : errors.toString();
    }

    @Test
    void mpjExpressProgramCompilesUnchanged() throws Exception {
        String src = """
                import mpi.*;
                public class Mpj {
                    public static void main(String[] args) throws Exception {
                        args = MPI.Init(args);
                        int me = MPI.COMM_WORLD.Rank(), n = MPI.COMM_WORLD.Size();
                        int[] a = new int[10];
                        MPI.COMM_WORLD.Send(a, 2, 3, MPI.INT, (me + 1) % n, 0);
                        Status s = MPI.COMM_WORLD.Recv(a, 5, 3, MPI.INT, MPI.ANY_SOURCE, MPI.ANY_TAG);
                        int src = s.source, tag = s.tag, count = s.Get_count(MPI.INT);
                        Request r = MPI.COMM_WORLD.Irecv(a, 0, 1, MPI.INT, 0, 1);
                        Status w = Request.Waitany(new Request[] {r});
                        Status[] all = Request.Testall(new Request[] {r});
                        Object[] objs = new Object[4];
                        MPI.COMM_WORLD.Bcast(objs, 1, 2, MPI.OBJECT, 0);
                        MPI.COMM_WORLD.Allreduce(a, 0, a, 5, 1, MPI.INT2, MPI.MINLOC);
                        Op op = new Op(new User_function() {
                            public void Call(Object in, int io, Object inout, int ioo, int c, Datatype t) {}
                        }, true);
                        Datatype v = Datatype.Vector(2, 1, 3, MPI.INT);
                        v.Commit();
                        Cartcomm cart = MPI.COMM_WORLD.Create_cart(new int[] {n}, new boolean[] {true}, false);
                        ShiftParms sp = cart.Shift(0, 1);
                        int d = sp.rank_dest + cart.Get().dims[0];
                        Graphcomm g = MPI.COMM_WORLD.Create_graph(new int[] {0}, new int[0], false);
                        try {
                            Intracomm c = (Intracomm) MPI.COMM_WORLD.clone();
                            c.Free();
                        } catch (MPIException e) {
                        }
                        MPI.Buffer_attach(java.nio.ByteBuffer.allocate(100));
                        MPI.Buffer_detach();
                        if (MPI.COMM_WORLD.Split(MPI.UNDEFINED, 0) == MPI.COMM_NULL) { }
                        MPI.Finalize();
                    }
                }
                """;
        assertEquals("", compile("Mpj", src));
    }

    @Test
    void openMpiProgramCompilesUnchanged() throws Exception {
        String src = """
                import mpi.*;
                import java.nio.IntBuffer;
                public class Ompi {
                    static Intracomm copy() {
                        return MPI.COMM_WORLD.clone(); // Open MPI's clone: no checked exception
                    }
                    public static void main(String[] args) throws MPIException {
                        MPI.Init(args);
                        int me = MPI.COMM_WORLD.getRank();
                        IntBuffer b = MPI.newIntBuffer(2);
                        Request r = MPI.COMM_WORLD.iRecv(b, 1, MPI.INT, 0, 0);
                        Status s = r.waitStatus();
                        int src = s.getSource();
                        CartComm c = MPI.COMM_WORLD.createCart(new int[] {1}, new boolean[] {false}, false);
                        GraphComm g = MPI.COMM_WORLD.createGraph(new int[] {0}, new int[0], false);
                        java.nio.ByteBuffer pair = MPI.newByteBuffer(8);
                        MPI.COMM_WORLD.allReduce(pair, 1, MPI.INT2, MPI.MINLOC);
                        MPI.Finalize();
                    }
                }
                """;
        assertEquals("", compile("Ompi", src));
    }

    @Test
    void constantsKeepOpenMpiValues() {
        assertEquals(-1, MPI.ANY_SOURCE);
        assertEquals(-2, MPI.PROC_NULL);
        assertEquals(-32766, MPI.UNDEFINED);
    }

    @Test
    void statusFieldsAreWhatTheGettersReturn() {
        Status s = Status.received(3, 7, 8).withIndex(2);
        assertEquals(3, s.source);
        assertEquals(7, s.tag);
        assertEquals(2, s.index);
        s.source = 5;
        assertEquals(5, s.getSource());
        assertEquals(MPI.ANY_SOURCE, new Status().source);
    }

    @Test
    void int2CountsIntsForMpiJavaAndBytesForOpenMpi() throws MPIException {
        assertEquals(2, MPI.INT2.Extent());
        assertEquals(8, MPI.INT2.getExtent());
        assertEquals(2, MPI.DOUBLE2.Extent());
    }

    @Test
    void cartcommIsACartComm() {
        assertTrue(CartComm.class.isAssignableFrom(Cartcomm.class));
        assertTrue(GraphComm.class.isAssignableFrom(Graphcomm.class));
        assertNotSame(CartComm.class, Cartcomm.class);
        assertFalse(Cartcomm.class.getName().equals(CartComm.class.getName()));
    }
}
