package io.bdmpi.launcher;

import io.bdmpi.master.config.MasterContext;
import io.bdmpi.master.config.ResumePolicyKind;
import io.bdmpi.master.memory.SlaveMemory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LaunchOptionsTest {

    private static final String MAIN = FixtureMain.class.getName();

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private static String testClasses() {
        try {
            return Path.of(FixtureMain.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        } catch (URISyntaxException e) {
            throw new AssertionError(e);
        }
    }

    private LaunchOptions.Result parse(String... args) {
        out.getBuffer().setLength(0);
        err.getBuffer().setLength(0);
        return LaunchOptions.parse(args, new PrintWriter(out), new PrintWriter(err));
    }

    private MasterContext ok(String... args) {
        LaunchOptions.Result r = parse(args);
        assertNotNull(r.context(), () -> "expected success, stderr: " + err);
        assertEquals("", err.toString());
        return r.context();
    }

    private String fails(String... args) {
        LaunchOptions.Result r = parse(args);
        assertNull(r.context());
        assertEquals(LaunchOptions.EXIT_USAGE, r.exitCode());
        String[] lines = err.toString().split("\\R");
        assertEquals(2, lines.length, err::toString);
        assertTrue(lines[0].startsWith("bdmpiexec: "), lines[0]);
        assertEquals(LaunchOptions.HINT, lines[1]);
        return lines[0];
    }

    @Test
    void defaultsComeFromMasterContext() {
        MasterContext d = new MasterContext();
        MasterContext c = ok("-cp", testClasses(), MAIN);
        assertEquals(d.nodes(), c.nodes());
        assertEquals(d.slaves(), c.slaves());
        assertEquals(d.running(), c.running());
        assertEquals(d.inlineMaxBytes(), c.inlineMaxBytes());
        assertEquals(d.workDirParent(), c.workDirParent());
        assertEquals(d.resumePolicy(), c.resumePolicy());
        assertEquals(List.of(), c.slaveJvmOptions());
        assertNull(c.statsFile());
        assertFalse(c.tagOutput());
        assertEquals(MAIN, c.program());
        assertEquals(List.of(), c.programArgs());
    }

    @Test
    void spaceAndEqualsFormsAndLongNames(@TempDir Path wd) {
        MasterContext c = ok("-ns", "4", "-nr=2", "-nn=1", "-im", "64k", "-wd=" + wd, "--stats", "s.json",
                "-cp", testClasses(), "--tag-output", "--slave-jvm-opts", "  -Xmx64m   -Dx=1 ", "--policy", "fifo", MAIN);
        assertEquals(4, c.slaves());
        assertEquals(2, c.running());
        assertEquals(64 * 1024, c.inlineMaxBytes());
        assertEquals(wd, c.workDirParent());
        assertEquals(Path.of("s.json"), c.statsFile());
        assertTrue(c.tagOutput());
        assertEquals(List.of("-Xmx64m", "-Dx=1"), c.slaveJvmOptions());
        assertEquals(ResumePolicyKind.FIFO, c.resumePolicy());

        MasterContext l = ok("--nodes", "1", "--slaves=3", "--running", "3", "--inline-max=1m",
                "--workdir", wd.toString(), "--classpath", testClasses(), MAIN);
        assertEquals(3, l.slaves());
        assertEquals(3, l.running());
        assertEquals(1 << 20, l.inlineMaxBytes());
    }

    @Test
    void npIsMpjExpressSpellingOfNs() {
        MasterContext c = ok("-np", "4", "-cp", testClasses(), MAIN, "-np", "7");
        assertEquals(4, c.slaves());
        assertEquals(ok("-ns", "4", "-cp", testClasses(), MAIN).running(), c.running());
        assertEquals(List.of("-np", "7"), c.programArgs());
        assertEquals(3, ok("-np=3", "-nr", "1", "-cp", testClasses(), MAIN).slaves());
    }

    @Test
    void everythingAfterTheProgramIsPassedUntouched() {
        MasterContext c = ok("-ns", "2", "-cp", testClasses(), MAIN, "-ns", "9", "--help", "--version", "x");
        assertEquals(2, c.slaves());
        assertEquals(List.of("-ns", "9", "--help", "--version", "x"), c.programArgs());
        assertEquals("", out.toString());
    }

    @Test
    void helpListsEveryOptionWithDefaults() {
        LaunchOptions.Result r = parse("--help");
        assertNull(r.context());
        assertEquals(0, r.exitCode());
        String help = out.toString();
        for (String opt : List.of("-nn", "--nodes", "-ns", "--slaves", "-nr", "--running", "-im", "--inline-max",
                "-wd", "--workdir", "--stats", "-cp", "--classpath", "--tag-output", "--slave-jvm-opts", "--policy",
                "--help", "--version")) {
            assertTrue(help.contains(opt), opt);
        }
        assertTrue(help.contains("Default: " + MasterContext.INLINE_MAX_BYTES_DEFAULT));
        assertTrue(help.contains("Default: resident"));
        assertTrue(help.replaceAll("\\s+", " ").contains("with %n in it (e.g. /scratch/ck-%n) a directory of each node's own, %n its"
                + " number"), "a %n of a description is printed as it is: " + help);
        assertEquals("", err.toString());
    }

    @Test
    void version() {
        LaunchOptions.Result r = parse("--version");
        assertEquals(0, r.exitCode());
        assertNull(r.context());
        String[] lines = out.toString().split("\\R");
        assertTrue(lines[0].matches("bdmpiexec \\d+\\.\\d+\\.\\d+(-SNAPSHOT)?"), "not filtered by Maven: " + lines[0]);
        assertTrue(lines[1].startsWith("Java 17") || lines[1].matches("Java \\d\\d.*"), lines[1]);
    }

    @Test
    void severalNodesStartTheMastersThroughMpiexec() {
        String cp = testClasses();
        LaunchOptions.Result r = parse("-nn", "2", "-ns", "3", "--hosts", "a,b", "-cp", cp, MAIN, "x");
        assertEquals(2, r.context().nodes());
        List<String> cmd = r.masters().command("127.0.0.1:4000", List.of());
        assertTrue(cmd.get(0).endsWith("mpiexec.mpich"), cmd.toString());
        assertEquals(List.of("-n", "2", "-hosts", "a,b"), cmd.subList(1, 5));
        assertEquals(List.of("setsid", "-f", "-w"), cmd.subList(5, 8), "each master in a session of its own, out of hydra's cleanup");
        assertTrue(cmd.get(8).endsWith("/bin/java"), cmd.toString());
        int master = cmd.indexOf("--node-master");
        assertEquals(Bdmpiexec.class.getName(), cmd.get(master - 1));
        assertEquals("--launcher=127.0.0.1:4000", cmd.get(master + 1), "where the masters send their heartbeats");
        assertEquals(List.of("-nn", "2", "-ns", "3", "--hosts", "a,b", "-cp", cp, MAIN, "x"), cmd.subList(master + 2, cmd.size()));
        assertNull(parse("--node-master", "--launcher=127.0.0.1:4000", "-nn", "2", "-cp", cp, MAIN).masters(), "a master runs its node itself");
    }

    /**
     * After node 1 of three is lost, the masters start again on the other two hosts with the same
     * seven ranks in blocks, from the checkpoints: options placed before the program override the
     * user's on a master's command line (and only there).
     */
    @Test
    void aLaunchThatLostANodeGoesOnWithoutIt(@TempDir Path ck) {
        String cp = testClasses();
        LaunchOptions.Result r = parse("-nn", "3", "-ns", "2", "--hosts", "a,b,c", "--recover", "1", "--checkpoint-dir",
                ck.toString(), "-cp", cp, MAIN, "x");
        MultiNodeLaunch next = r.masters().without(1, 7);
        assertEquals(2, next.nodes());
        assertEquals("a,c", next.hosts());
        List<String> cmd = next.command("127.0.0.1:4000", List.of());
        List<String> masterArgs = cmd.subList(cmd.indexOf("--node-master"), cmd.size());
        assertEquals(List.of("--node-master", "--launcher=127.0.0.1:4000", "-nn", "3", "-ns", "2", "--hosts", "a,b,c", "--recover", "1", "--checkpoint-dir",
                ck.toString(), "-cp", cp, "-nn", "2", "--node-slaves", "4,3", "--placement", "block", "--restart", ck.toString(),
                MAIN, "x"), masterArgs);
        MasterContext master = ok(masterArgs.toArray(String[]::new));
        assertEquals(2, master.nodes());
        assertEquals(List.of(4, 3), java.util.Arrays.stream(master.slavesPerNode()).boxed().toList());
        assertEquals(ck, master.restartDir());
        String twice = fails("-nn", "2", "-nn", "3", "-cp", cp, MAIN);
        assertTrue(twice.contains("should be specified only once"), twice);
        assertTrue(fails("-nn", "2", "--recover", "1", "-cp", cp, MAIN).contains("--recover on several nodes"));
    }

    /**
     * A host beyond the first -nn is a spare: after a lost node the job keeps its three nodes, the
     * spare in the lost one's place; from a host file too, one entry per slot.
     */
    @Test
    void aSpareHostTakesTheLostNodesPlace(@TempDir Path ck) throws IOException {
        String cp = testClasses();
        MultiNodeLaunch spare = parse("-nn", "3", "-ns", "2", "--hosts", "a,b,c,d", "--recover", "1", "--checkpoint-dir",
                ck.toString(), "-cp", cp, MAIN).masters().without(1, 6);
        assertEquals(3, spare.nodes());
        assertEquals("a,c,d", spare.hosts());
        MasterContext master = ok(spare.command("127.0.0.1:4000", List.of()).stream().dropWhile(a -> !a.equals("--node-master"))
                .toArray(String[]::new));
        assertEquals(List.of(2, 2, 2), java.util.Arrays.stream(master.slavesPerNode()).boxed().toList());

        Path file = Files.writeString(ck.resolve("hosts"), "# the job's hosts\na:2\nb slots=1\n\nc\n");
        MultiNodeLaunch fromFile = parse("-nn", "3", "-ns", "2", "--hostfile", file.toString(), "--recover", "1",
                "--checkpoint-dir", ck.toString(), "-cp", cp, MAIN).masters();
        assertEquals(List.of("a", "a", "b", "c"), fromFile.hostList());
        MultiNodeLaunch next = fromFile.without(0, 6);
        assertEquals(3, next.nodes(), "c is the spare");
        assertEquals("a,b,c", next.hosts());
        MultiNodeLaunch last = next.without(2, 6);
        assertEquals(2, last.nodes(), "no spare left");
        assertEquals("a,b", last.hosts());
    }

    @Test
    void invalidInputIsOneLineAndExitTwo(@TempDir Path tmp) throws IOException {
        String cp = testClasses();
        assertTrue(fails("--bogus", MAIN).contains("--bogus"));
        assertTrue(fails("-ns", "x", "-cp", cp, MAIN).contains("'x'"));
        assertTrue(fails("-ns", "0", "-cp", cp, MAIN).contains("-ns=0"));
        assertTrue(fails("-ns", "2", "-nr", "3", "-cp", cp, MAIN).contains("-nr=3"));
        assertTrue(fails("-nr", "0", "-cp", cp, MAIN).contains("-nr=0"));
        assertTrue(fails("-nn", "0", "-cp", cp, MAIN).contains("-nn=0"));
        assertTrue(fails("-ns", "2").contains("no program"));
        assertTrue(fails("-im", "12q", "-cp", cp, MAIN).contains("12q"));
        assertTrue(fails("-im", "1g", "-cp", cp, MAIN).contains("-im="));
        assertTrue(fails("-wd", tmp.resolve("missing").toString(), "-cp", cp, MAIN).contains("-wd="));
        Path file = Files.createFile(tmp.resolve("file"));
        assertTrue(fails("-wd", file.toString(), "-cp", cp, MAIN).contains("-wd="));
        assertTrue(fails("--stats", tmp.toString(), "-cp", cp, MAIN).contains("--stats=" + tmp + " is a directory"));
        assertTrue(fails("--trace", tmp.resolve("missing/t.json").toString(), "-cp", cp, MAIN)
                .contains("--trace=" + tmp.resolve("missing/t.json") + ": " + tmp.resolve("missing") + " is not a writable directory"));
        assertTrue(fails("--report", tmp.resolve("missing/r.html").toString(), "-cp", cp, MAIN).contains("--report="));
        assertTrue(fails("--policy", "lifo", "-cp", cp, MAIN).contains("--policy"));
        assertTrue(fails("-nn", "2", "--placement", tmp.resolve("none").toString(), "-cp", cp, MAIN).contains("--placement"));
        assertTrue(fails("-nn", "2", "--hosts", "a", "--hostfile", file.toString(), "-cp", cp, MAIN).contains("--hosts or --hostfile"));
        assertTrue(fails("-nn", "2", "--mpiexec", "/no/such/mpiexec", "-cp", cp, MAIN).contains("/no/such/mpiexec"));
        assertTrue(fails("-cp", cp, "no.such.Main").contains("no.such.Main"));
        assertTrue(fails("-cp", cp, LaunchOptionsTest.class.getName()).contains("main"));
        assertTrue(fails(tmp.resolve("missing.jar").toString()).contains("missing.jar"));
        assertTrue(fails("-ns", "2", "-nr").contains("--running"));
        assertTrue(fails("-nn", "2", "--placement", "0,-1", "-cp", cp, MAIN).contains("--placement 0,-1 rank 1: node -1"));
        for (String internal : List.of("--node-master", "--launcher=h:1", "--node-slaves=1", "--node-dirs=0", "--held-placement")) {
            assertTrue(fails(internal, "-cp", cp, MAIN).contains(internal.replaceAll("=.*", "")
                    + " is bdmpiexec's own option for the masters it starts"), internal);
        }
    }

    @Test
    void runningAutoOnTheCommandLineInTheFileAndPerNode(@TempDir Path tmp) throws IOException {
        String cp = testClasses();
        assertEquals(MasterContext.RUNNING_AUTO, ok("-ns", "4", "-nr", "auto", "-cp", cp, MAIN).runningOn(0));
        assertEquals(MasterContext.RUNNING_AUTO, ok("--running=auto", "-cp", cp, MAIN).running());
        Path top = Files.writeString(tmp.resolve("top.yaml"), "slaves: 4\nrunning: auto\n");
        assertEquals(MasterContext.RUNNING_AUTO, ok("--config", top.toString(), "-cp", cp, MAIN).runningOn(0));
        assertEquals(3, ok("--config", top.toString(), "-nr", "3", "-cp", cp, MAIN).runningOn(0), "the command line wins");
        Path perNode = Files.writeString(tmp.resolve("node.yaml"), "slaves: 4\nrunning: 2\nper-node:\n  - running: auto\n");
        assertEquals(MasterContext.RUNNING_AUTO, ok("--config", perNode.toString(), "-cp", cp, MAIN).runningOn(0));

        assertEquals("bdmpiexec: Invalid value for option '--running': 'autox' is neither a number of slaves nor auto",
                fails("-ns", "4", "-nr", "autox", "-cp", cp, MAIN));
        assertTrue(fails("-nr", String.valueOf(Integer.MIN_VALUE), "-cp", cp, MAIN).contains("is neither a number of slaves"));
        Path bad = Files.writeString(tmp.resolve("bad.yaml"), "slaves: 4\nper-node:\n  - running: sometimes\n");
        assertEquals("bdmpiexec: config file " + bad + " line 3, key 'per-node[0].running': 'sometimes' is neither a number"
                + " of slaves nor auto", fails("--config", bad.toString(), "-cp", cp, MAIN));
    }

    private static Path jar(Path dir, String name, String mainClass) throws IOException {
        Path jar = dir.resolve(name);
        Manifest mf = new Manifest();
        mf.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        if (mainClass != null) {
            mf.getMainAttributes().put(Attributes.Name.MAIN_CLASS, mainClass);
        }
        try (OutputStream os = Files.newOutputStream(jar); JarOutputStream jos = new JarOutputStream(os, mf)) {
            // manifest only
        }
        return jar;
    }

    @Test
    void jarNeedsMainClass(@TempDir Path tmp) throws IOException {
        Path good = jar(tmp, "good.jar", "a.Main");
        MasterContext c = ok(good.toString(), "arg");
        assertEquals(good.toString(), c.program());
        assertEquals(List.of("arg"), c.programArgs());
        Path bad = jar(tmp, "bad.jar", null);
        assertTrue(fails(bad.toString()).contains("Main-Class"));
        Path notJar = Files.writeString(tmp.resolve("text.jar"), "not a jar");
        assertTrue(fails(notJar.toString()).contains("text.jar"));
    }

    @Test
    void classPathWildcardFindsJars(@TempDir Path tmp) throws Exception {
        Path lib = Files.createDirectory(tmp.resolve("lib"));
        Path j = jar(lib, "x.jar", null);
        Files.writeString(lib.resolve("notes.txt"), "");
        var urls = LaunchOptions.classPathUrls(lib + "/*::" + tmp);
        assertEquals(2, urls.size());
        assertEquals(j.toUri().toURL(), urls.get(0));
    }

    @Test
    void byteSizes() {
        assertEquals(4096, LaunchOptions.parseBytes("4096"));
        assertEquals(64 * 1024, LaunchOptions.parseBytes("64k"));
        assertEquals(2L << 20, LaunchOptions.parseBytes("2M"));
        assertEquals(1L << 30, LaunchOptions.parseBytes("1g"));
        assertEquals(0, LaunchOptions.parseBytes("0"));
    }

    @Test
    void jvmOptionsSplitOnWhitespace() {
        assertEquals(List.of("-Xmx1g", "-Da=b"), LaunchOptions.splitJvmOptions("\t-Xmx1g \n -Da=b  "));
        assertEquals(List.of(), LaunchOptions.splitJvmOptions("   "));
        assertEquals(List.of(), LaunchOptions.splitJvmOptions(""));
    }

    @Test
    void memoryOptions() {
        MasterContext d = ok("-cp", testClasses(), MAIN);
        assertEquals(0, d.memoryLimitBytes());
        assertEquals(SlaveMemory.HeapOnPark.AUTO, d.heapOnPark());
        assertFalse(d.offHeapMessages());
        assertTrue(d.readAhead());
        MasterContext c = ok("--shrink-heap-on-park", "--offheap-messages", "--no-read-ahead", "-cp", testClasses(), MAIN);
        assertEquals(SlaveMemory.HeapOnPark.SHRINK, c.heapOnPark());
        assertEquals(SlaveMemory.HeapOnPark.KEEP, ok("--no-shrink-heap-on-park", "-cp", testClasses(), MAIN).heapOnPark());
        assertTrue(c.offHeapMessages());
        assertFalse(c.readAhead());
        assertTrue(fails("--memory-limit", "1m", "-cp", testClasses(), MAIN)
                .contains("--memory-limit=1048576 must be at least 67108864 (64m)"));
        assertTrue(fails("--memory-limit", "lots", "-cp", testClasses(), MAIN).contains("'lots' is not a byte count"));
    }
}
