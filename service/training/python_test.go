package training

import (
	"bytes"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"google.golang.org/grpc"

	"github.com/orrery/orrery/proto/wire"
)

// python is Debian's interpreter, where python3-grpcio and python3-numpy install.
const python = "/usr/bin/python3"

// TestPythonEnv runs bots/python/tests/test_env.py, orrery_env's tests, against this service
// on a loopback port: 64 environments of each game, 2,000 random masked steps each.
func TestPythonEnv(t *testing.T) {
	if testing.Short() {
		t.Skip("starts Python; not in -short")
	}
	if out, err := exec.Command(python, "-c", "import grpc, google.protobuf, numpy").CombinedOutput(); err != nil {
		msg := "install them with: apt-get install -y python3-grpcio python3-protobuf python3-numpy"
		if os.Getenv("CI") != "" {
			t.Fatalf("%s cannot import grpc, protobuf and numpy (%v: %s); %s", python, err, bytes.TrimSpace(out), msg)
		}
		t.Skipf("%s cannot import grpc, protobuf and numpy (%v: %s); %s", python, err, bytes.TrimSpace(out), msg)
	}
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	g := grpc.NewServer(grpc.ForceServerCodecV2(wire.Codec{}))
	New(Config{}).Register(g)
	go g.Serve(lis)
	defer g.Stop()

	dir, err := filepath.Abs(filepath.Join("..", "..", "bots", "python"))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(python, "-m", "unittest", "discover", "-v", "-s", "tests", "-p", "test_env.py")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "PYTHONPATH="+dir, "ORRERY_TRAIN_ADDR="+lis.Addr().String())
	out, err := cmd.CombinedOutput()
	t.Logf("%s", out)
	if err != nil {
		t.Fatalf("orrery_env's tests failed: %v", err)
	}
	if !bytes.Contains(out, []byte("OK")) || bytes.Contains(out, []byte("skipped")) && !bytes.Contains(out, []byte("pettingzoo is not installed")) {
		t.Fatalf("orrery_env's tests did not all run")
	}
}
