//go:build unix

package main

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// The Java bot of bots/java plays a seat beside the Python and JavaScript ones. It is built by
// bots/java/build.sh from Debian's protoc, gRPC Java plugin and jars.

const javaInstall = "apt-get install -y default-jdk-headless protobuf-compiler libprotobuf-java libgrpc-java " +
	"protobuf-compiler-grpc-java-plugin libnetty-java libperfmark-java libgoogle-gson-java"

var javaBuild struct {
	once sync.Once
	err  error
	out  []byte
}

// javaJar returns the Java bot's jar, built once per test binary when it is missing or older
// than its sources (bots/java, proto/). Without Java or the packages the test is skipped,
// saying what to install; under CI it fails instead, since CI installs them.
func javaJar(t *testing.T, root string) (java, jar string) {
	t.Helper()
	missing := func(what string) {
		t.Helper()
		if os.Getenv("CI") != "" {
			t.Fatalf("%s; CI installs it (.ci/run): %s", what, javaInstall)
		}
		t.Skipf("%s; install it with: %s", what, javaInstall)
	}
	java, err := exec.LookPath("java")
	if err != nil {
		missing("java is not installed")
	}
	for _, tool := range []string{"javac", "protoc", "grpc_java_plugin"} {
		if _, err := exec.LookPath(tool); err != nil {
			missing(tool + " is not installed")
		}
	}
	if _, err := os.Stat("/usr/share/java/grpc-netty.jar"); err != nil {
		missing("Debian's gRPC Java jars are not installed")
	}
	dir := filepath.Join(root, "bots", "java")
	jar = filepath.Join(dir, "build", "orrery-bot.jar")
	javaBuild.once.Do(func() {
		if !stale(jar, filepath.Join(dir, "src"), filepath.Join(dir, "build.sh"), filepath.Join(root, "proto")) {
			return
		}
		javaBuild.out, javaBuild.err = exec.Command("sh", filepath.Join(dir, "build.sh")).CombinedOutput()
	})
	if javaBuild.err != nil {
		t.Fatalf("bots/java/build.sh: %v\n%s", javaBuild.err, javaBuild.out)
	}
	return java, jar
}

// stale says whether target is missing or older than any source file (.proto, .java, .sh)
// under sources; other files there (proto/'s Go code) do not go into the jar.
func stale(target string, sources ...string) bool {
	st, err := os.Stat(target)
	if err != nil {
		return true
	}
	built := st.ModTime()
	newer := false
	for _, src := range sources {
		filepath.WalkDir(src, func(_ string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(d.Name(), ".proto") && !strings.HasSuffix(d.Name(), ".java") && !strings.HasSuffix(d.Name(), ".sh") {
				return nil
			}
			if info, err := d.Info(); err == nil && info.ModTime().After(built) {
				newer = true
				return filepath.SkipAll
			}
			return nil
		})
	}
	return newer
}
