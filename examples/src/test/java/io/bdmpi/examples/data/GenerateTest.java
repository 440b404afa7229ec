package io.bdmpi.examples.data;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The generators' command line: the documented options, and one clear message per mistake. */
class GenerateTest {

    @TempDir
    Path dir;

    @Test
    void eachSubcommandWritesWhatTheGeneratorWrites() throws IOException {
        Path cli = dir.resolve("cli");
        Generate.run(new String[]{"rmat", "--out", cli.toString(), "--scale", "9", "--edge-factor", "4", "--seed", "3",
                "--threads", "2", "--chunk", "100", "--memory", "8k"});
        Path api = dir.resolve("api");
        new RmatGenerator(9, 4, 3).write(api, 1 << 20, 1, 1 << 30);
        assertArrayEquals(Files.readAllBytes(api), Files.readAllBytes(cli));

        Generate.run(new String[]{"docs", "--out", dir.resolve("d").toString(), "--docs", "50", "--terms", "30"});
        new DocTermGenerator(50, 30, 100, 1).write(dir.resolve("d2"), 7, 1);
        assertArrayEquals(Files.readAllBytes(dir.resolve("d2")), Files.readAllBytes(dir.resolve("d")));

        Generate.run(new String[]{"ratings", "--out", dir.resolve("r").toString(), "--users", "60", "--items", "25",
                "--avg-ratings", "5", "--seed", "2"});
        new RatingGenerator(60, 25, 5, 2).write(dir.resolve("r2"), 3, 2);
        assertArrayEquals(Files.readAllBytes(dir.resolve("r2")), Files.readAllBytes(dir.resolve("r")));
    }

    @Test
    void mistakesAreNamed() {
        String out = dir.resolve("x").toString();
        expect("usage", new String[]{});
        expect("unknown generator 'graph'", new String[]{"graph", "--out", out});
        expect("--out is required", new String[]{"rmat", "--scale", "5"});
        expect("--scale is required", new String[]{"rmat", "--out", out});
        expect("--scale must be between 1 and 30", new String[]{"rmat", "--out", out, "--scale", "40"});
        expect("unknown option --edges", new String[]{"rmat", "--out", out, "--edges", "5"});
        expect("--docs must be a whole number", new String[]{"docs", "--out", out, "--docs", "many", "--terms", "5"});
        expect("--users needs a value", new String[]{"ratings", "--out", out, "--items", "5", "--users"});
        expect("--out given twice", new String[]{"ratings", "--out", out, "--out", out});
        assertFalse(Files.exists(dir.resolve("x")));
    }

    @Test
    void anExistingFileIsNotOverwritten() throws IOException {
        Path p = dir.resolve("exists");
        Files.writeString(p, "keep");
        IOException e = assertThrows(IOException.class,
                () -> Generate.run(new String[]{"docs", "--out", p.toString(), "--docs", "5", "--terms", "5"}));
        assertTrue(e.getMessage().contains("exists already"), e.getMessage());
        assertTrue(Files.readString(p).equals("keep"));
    }

    private static void expect(String message, String[] args) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Generate.run(args));
        assertTrue(e.getMessage().contains(message), "expected '" + message + "' in: " + e.getMessage());
    }
}
