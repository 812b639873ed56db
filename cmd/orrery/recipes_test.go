//go:build unix

package main

import (
	"context"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"google.golang.org/protobuf/types/known/durationpb"

	"github.com/orrery/orrery/bots/builtin"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
)

// recipe is the code block docs/clients.md marks with <!-- recipe: name -->.
func recipe(t *testing.T, root, name string) string {
	t.Helper()
	doc, err := os.ReadFile(filepath.Join(root, "docs", "clients.md"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("(?s)<!-- recipe: " + regexp.QuoteMeta(name) + " -->\n```[a-z]+\n(.*?)\n```").FindSubmatch(doc)
	if m == nil {
		t.Fatalf("docs/clients.md has no recipe %s", name)
	}
	return string(m[1]) + "\n"
}

// TestClientRecipes plays a Planet match with each bot of docs/clients.md that CI can build
// quickly (Java, Ruby; C++ takes minutes to compile), taken out of the file as written, seat
// 0 against a built-in greedy bot in seat 1.
func TestClientRecipes(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a server and a JVM or Ruby; not in -short")
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	srv := startServe(t, buildOrrery(t, dir), "127.0.0.1:0", filepath.Join(dir, "orrery.db"))
	conn := dialForeign(t, srv.addr)
	client := orreryv1.NewArenaServiceClient(conn)
	// Every .proto file, relative to proto/, as the recipes' find lists them.
	var files []string
	filepath.WalkDir(filepath.Join(root, "proto"), func(p string, d fs.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, ".proto") {
			rel, _ := filepath.Rel(filepath.Join(root, "proto"), p)
			files = append(files, rel)
		}
		return nil
	})
	for _, c := range []struct {
		lang  string
		build func(t *testing.T, work string) []string // the command that runs the bot
	}{
		{"java", func(t *testing.T, work string) []string {
			java, jar := javaJar(t, root) // its classes are the generated code, its manifest the classpath
			src := filepath.Join(work, "Main.java")
			os.WriteFile(src, []byte(recipe(t, root, "Main.java")), 0o644)
			if out, err := exec.Command("javac", "-nowarn", "-d", work, "-cp", jar, src).CombinedOutput(); err != nil {
				t.Fatalf("javac Main.java: %v\n%s", err, out)
			}
			return []string{java, "-cp", work + ":" + jar, "Main", srv.addr}
		}},
		{"ruby", func(t *testing.T, work string) []string {
			var plugin string
			for _, tool := range []string{"ruby", "protoc", "grpc_ruby_plugin"} {
				path, err := exec.LookPath(tool)
				if err != nil {
					missingRecipe(t, tool+" is not installed")
				}
				plugin = path // the last: grpc_ruby_plugin
			}
			if out, err := exec.Command("ruby", "-e", `require "grpc"; require "google/protobuf"`).CombinedOutput(); err != nil {
				missingRecipe(t, "ruby cannot load grpc: "+strings.TrimSpace(string(out)))
			}
			gen := filepath.Join(work, "gen")
			os.Mkdir(gen, 0o755)
			args := append([]string{"-I", filepath.Join(root, "proto"), "--ruby_out=" + gen, "--grpc_out=" + gen,
				"--plugin=protoc-gen-grpc=" + plugin}, files...)
			if out, err := exec.Command("protoc", args...).CombinedOutput(); err != nil {
				t.Fatalf("protoc: %v\n%s", err, out)
			}
			os.WriteFile(filepath.Join(work, "bot.rb"), []byte(recipe(t, root, "bot.rb")), 0o644)
			return []string{"ruby", filepath.Join(work, "bot.rb"), srv.addr}
		}},
	} {
		t.Run(c.lang, func(t *testing.T) {
			argv := c.build(t, t.TempDir())
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			created, err := client.CreateMatch(ctx, &orreryv1.CreateMatchRequest{Game: "planet", Seats: 2,
				Clock: &orreryv1.Clock{PerMove: durationpb.New(10 * time.Second)}})
			if err != nil {
				t.Fatal(err)
			}
			greedy, _ := builtin.New("planet", "greedy", 1)
			goDone := playGo(ctx, conn, created.GetSeats()[1].GetToken(), greedy)
			cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
			cmd.Env = append(os.Environ(), "ORRERY_TOKEN="+created.GetSeats()[0].GetToken())
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("%s: %v\n%s", strings.Join(argv, " "), err, out)
			}
			if !strings.Contains(string(out), "ended (END_REASON_NORMAL)") {
				t.Errorf("the %s recipe's output:\n%s", c.lang, out)
			}
			if err := <-goDone; err != nil {
				t.Errorf("greedy seat: %v", err)
			}
			checkForeignSeats(t, ctx, client, created.GetMatchId(), []*foreignBot{{lang: c.lang, seat: 0}})
		})
	}
}

// missingRecipe skips a recipe whose language is not installed, or fails under CI, which
// installs it (.ci/run).
func missingRecipe(t *testing.T, what string) {
	t.Helper()
	if os.Getenv("CI") != "" {
		t.Fatalf("%s; CI installs it (.ci/run)", what)
	}
	t.Skipf("%s; docs/clients.md says what to install", what)
}
