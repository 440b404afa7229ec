package io.bdmpi.master.internode;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The binding and the pump against each real MPI library (MPICH and Open MPI, both installed by
 * .ci/run): two processes under the library's own launcher (see {@link PumpCheck}).
 */
class PumpTest {

    /** An idle pump may use at most this share of a core (it parks; a blocked MPI_Recv would use all of it). */
    private static final long MAX_IDLE_CPU_MS_PER_S = 150;

    @ParameterizedTest(name = "{0}")
    @EnumSource(MpiAbi.class)
    void controlAndLargeDataMessagesRoundTripOtherThreadsSendAndPollAndAnIdlePumpBacksOff(MpiAbi abi) throws Exception {
        Map<String, String> env = withAbi(abi);
        MpiLauncher launcher = MpiLauncher.find(null, env);
        String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        String java = System.getProperty("java.home") + File.separator + "bin" + File.separator + "java";
        List<String> command = new ArrayList<>(launcher.command(2, null, null));
        command.addAll(List.of(java, "-cp", cp, PumpCheck.class.getName()));
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        pb.environment().put(MpiAbi.ABI_VARIABLE, abi.settingName());
        Process p = pb.start();
        p.getOutputStream().close();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "mpiexec did not end:\n" + output);
        assertEquals(0, p.exitValue(), output);
        List<String> oks = output.lines().filter(l -> l.startsWith("PumpCheck rank ")).sorted().toList();
        assertEquals(2, oks.size(), output);
        for (String line : oks) {
            assertTrue(line.contains(" abi=" + abi + " "), line);
            long idleCpuMs = Long.parseLong(line.substring(line.indexOf("idleCpuMs=") + "idleCpuMs=".length()));
            assertTrue(idleCpuMs <= MAX_IDLE_CPU_MS_PER_S, "idle pump used " + idleCpuMs + " ms of CPU in 1 s: " + line);
            // Both libraries provide MPI_THREAD_SERIALIZED: a thread polling for small messages takes some itself.
            int polledHere = Integer.parseInt(line.replaceAll(".* polledHere=(\\d+) .*", "$1"));
            assertTrue(polledHere > 0, "the main thread took none of the " + PumpCheck.POLLED_ROUND_TRIPS
                    + " control messages it polled for: " + line);
        }
    }

    @Test
    void choosesMpichWhenBothArePresentAndObeysTheOverrides() {
        MpiAbi.Choice found = MpiAbi.choose(Map.of());
        assertEquals(MpiAbi.MPICH, found.abi());
        assertTrue(found.library().endsWith("libmpich.so.12"), found.library());
        MpiAbi.Choice openMpi = MpiAbi.choose(withAbi(MpiAbi.OPEN_MPI));
        assertEquals(MpiAbi.OPEN_MPI, openMpi.abi());
        assertTrue(openMpi.library().endsWith("libmpi.so.40"), openMpi.library());
        assertEquals(MpiAbi.OPEN_MPI, MpiAbi.choose(Map.of(MpiAbi.LIBRARY_VARIABLE, "libmpi.so.40")).abi());
        assertEquals(MpiAbi.OPEN_MPI, MpiAbi.choose(Map.of(MpiAbi.LIBRARY_VARIABLE, openMpi.library())).abi());
        assertEquals(MpiAbi.MPICH, MpiAbi.choose(Map.of(MpiAbi.LIBRARY_VARIABLE, "libx.so", MpiAbi.ABI_VARIABLE, "mpich")).abi());
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> MpiLibrary.load(new MpiAbi.Choice(MpiAbi.OPEN_MPI, found.library())));
        assertTrue(e.getMessage().contains("ompi_mpi_comm_world") && e.getMessage().contains("not Open MPI"), e.getMessage());
    }

    /** What a test that needs a library not installed (here: none in an empty directory) fails with. */
    @Test
    void aMissingLibraryIsNamedWithItsPackage(@TempDir Path empty) {
        List<String> dirs = List.of(empty.toString());
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> MpiAbi.choose(withAbi(MpiAbi.OPEN_MPI), dirs));
        assertEquals(MpiAbi.ABI_VARIABLE + "=openmpi asks for Open MPI, whose library was not found (looked for [libmpi.so.40] in ["
                + empty + "]); install it (Debian: apt-get install openmpi-bin) or set " + MpiAbi.LIBRARY_VARIABLE, e.getMessage());
        e = assertThrows(IllegalStateException.class, () -> MpiAbi.choose(Map.of(), dirs));
        assertTrue(e.getMessage().startsWith("no MPI library found") && e.getMessage().contains("apt-get install mpich"),
                e.getMessage());
        e = assertThrows(IllegalStateException.class,
                () -> MpiAbi.choose(Map.of(MpiAbi.LIBRARY_VARIABLE, empty.resolve("libmpi.so.40").toString()), dirs));
        assertEquals(MpiAbi.LIBRARY_VARIABLE + "=" + empty.resolve("libmpi.so.40") + ": no such file", e.getMessage());
    }

    @Test
    void theLauncherFollowsTheLibraryAndAnotherLibrarysLauncherIsRefused() {
        Map<String, String> mpich = withAbi(MpiAbi.MPICH);
        Map<String, String> openMpi = withAbi(MpiAbi.OPEN_MPI);
        assertTrue(MpiLauncher.find(null, mpich).path().endsWith("mpiexec.mpich"));
        MpiLauncher ompi = MpiLauncher.find(null, openMpi);
        assertTrue(ompi.path().endsWith("mpiexec.openmpi"), ompi.path());
        List<String> cmd = ompi.command(3, "a,b", null);
        assertEquals(List.of("-n", "3", "--oversubscribe", "--bind-to", "none"), cmd.subList(1, 6));
        assertTrue(cmd.containsAll(List.of("--host", "a,b", "-x", MpiAbi.ABI_VARIABLE)), cmd.toString());
        assertEquals(List.of(MpiLauncher.find(null, mpich).path(), "-n", "2", "-hosts", "a,b"),
                MpiLauncher.find(null, mpich).command(2, "a,b", null));
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> MpiLauncher.find(ompi.path(), mpich));
        assertTrue(e.getMessage().contains("belongs to Open MPI") && e.getMessage().contains(MpiAbi.ABI_VARIABLE + "=openmpi"),
                e.getMessage());
    }

    private static Map<String, String> withAbi(MpiAbi abi) {
        Map<String, String> env = new java.util.HashMap<>(System.getenv());
        env.keySet().removeIf(k -> k.startsWith("BDMPI_"));
        env.put(MpiAbi.ABI_VARIABLE, abi.settingName());
        return env;
    }
}
