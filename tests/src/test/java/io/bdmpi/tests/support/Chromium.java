package io.bdmpi.tests.support;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Debian's headless {@code chromium}, to load a page as a user's browser would: its rendered DOM
 * ({@code --dump-dom}) and a screenshot. Each call uses a fresh profile directory and no network
 * services. Fails (not skips) when chromium is missing: .ci/run installs it.
 */
public final class Chromium {

    /** Where Debian's package puts it. */
    public static final Path EXECUTABLE = Path.of("/usr/bin/chromium");
    private static final long TIMEOUT_S = 90;

    private Chromium() {
    }

    /** The DOM of {@code page} after loading and rendering it. */
    public static String dumpDom(Path page, Path scratch) throws IOException, InterruptedException {
        Path out = scratch.resolve("dom.html");
        run(scratch, out, "--dump-dom", page.toUri().toString());
        return Files.readString(out, StandardCharsets.UTF_8);
    }

    /** Renders {@code page} in a window of {@code width} x {@code height} and writes a PNG screenshot to {@code png}. */
    public static void screenshot(Path page, Path png, int width, int height, Path scratch) throws IOException, InterruptedException {
        run(scratch, scratch.resolve("screenshot.log"), "--screenshot=" + png, "--window-size=" + width + "," + height,
                "--hide-scrollbars", page.toUri().toString());
        if (!Files.isRegularFile(png)) {
            throw new AssertionError("chromium wrote no screenshot; its output: " + Files.readString(scratch.resolve("screenshot.log")));
        }
    }

    private static void run(Path scratch, Path stdout, String... args) throws IOException, InterruptedException {
        if (!Files.isExecutable(EXECUTABLE)) {
            throw new AssertionError(EXECUTABLE + " is missing: install Debian's chromium (apt-get install chromium; .ci/run does)");
        }
        Path profile = Files.createTempDirectory(scratch, "chromium-profile");
        List<String> cmd = new ArrayList<>(List.of(EXECUTABLE.toString(), "--headless", "--no-sandbox", "--disable-gpu",
                "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--user-data-dir=" + profile));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .redirectOutput(stdout.toFile()).redirectError(scratch.resolve("chromium.err").toFile()).start();
        try {
            if (!p.waitFor(TIMEOUT_S, TimeUnit.SECONDS)) {
                throw new AssertionError("chromium did not finish within " + TIMEOUT_S + " s: " + cmd);
            }
        } finally {
            Reaper.killTree(p.toHandle());
        }
        if (p.exitValue() != 0) {
            throw new AssertionError("chromium exited " + p.exitValue() + ": " + cmd + "\n"
                    + Files.readString(scratch.resolve("chromium.err")));
        }
    }
}
