package io.bdmpi.master.internode;

import org.junit.jupiter.api.Test;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The binding and the pump against the real MPICH: two processes under its mpiexec (see {@link PumpCheck}). */
class PumpTest {

    /** An idle pump may use at most this share of a core (it parks; a blocked MPI_Recv would use all of it). */
    private static final long MAX_IDLE_CPU_MS_PER_S = 150;

    @Test
    void controlAndLargeDataMessagesRoundTripAndAnIdlePumpBacksOff() throws Exception {
        String mpiexec = MpiLauncher.find(null, System.getenv());
        String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        String java = System.getProperty("java.home") + File.separator + "bin" + File.separator + "java";
        Process p = new ProcessBuilder(mpiexec, "-n", "2", java, "-cp", cp, PumpCheck.class.getName())
                .redirectErrorStream(true).start();
        p.getOutputStream().close();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "mpiexec did not end:\n" + output);
        assertEquals(0, p.exitValue(), output);
        List<String> oks = output.lines().filter(l -> l.startsWith("PumpCheck rank ")).sorted().toList();
        assertEquals(2, oks.size(), output);
        for (String line : oks) {
            long idleCpuMs = Long.parseLong(line.substring(line.indexOf("idleCpuMs=") + "idleCpuMs=".length()));
            assertTrue(idleCpuMs <= MAX_IDLE_CPU_MS_PER_S, "idle pump used " + idleCpuMs + " ms of CPU in 1 s: " + line);
        }
    }

    @Test
    void choosesMpichWhenPresentAndObeysTheOverrides() {
        MpiAbi.Choice found = MpiAbi.choose(java.util.Map.of());
        assertEquals(MpiAbi.MPICH, found.abi());
        assertTrue(found.library().endsWith("libmpich.so.12"), found.library());
        assertEquals(MpiAbi.OPEN_MPI, MpiAbi.choose(java.util.Map.of(MpiAbi.LIBRARY_VARIABLE, "/opt/openmpi/lib/libmpi.so.40")).abi());
        assertEquals(MpiAbi.MPICH, MpiAbi.choose(java.util.Map.of(MpiAbi.LIBRARY_VARIABLE, "libx.so", MpiAbi.ABI_VARIABLE, "mpich")).abi());
        IllegalStateException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class,
                () -> MpiLibrary.load(new MpiAbi.Choice(MpiAbi.OPEN_MPI, "libmpi.so.40")));
        assertTrue(e.getMessage().contains("Open MPI"), e.getMessage());
    }
}
