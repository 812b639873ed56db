// Package pgtest starts a throwaway PostgreSQL cluster for tests: initdb into a temporary
// directory, postgres on a free local port, stopped and removed in t.Cleanup.
//
// Without PostgreSQL installed a test is skipped with the reason, unless CI is set: then it
// fails, so that CI never passes by skipping the PostgreSQL half of the suite.
package pgtest

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // registers the "pgx" driver
)

// Cluster is a running PostgreSQL server owned by one test.
type Cluster struct {
	Port   int
	dir    string
	admin  *sql.DB
	nextDB atomic.Int64
	// stopServer stops postgres and waits for it; nil until it runs.
	stopServer func()
}

// Options tune a cluster. The zero value is for correctness tests: no fsync, as data only has
// to outlive the test, not the machine.
type Options struct {
	Durable bool // fsync and synchronous commit on, as in production: for benchmarks
}

// Bin finds the directory of PostgreSQL's server binaries (Debian's /usr/lib/postgresql/N/bin,
// the newest; else initdb on PATH), or says why not.
func Bin() (string, error) {
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	sort.Slice(dirs, func(i, j int) bool { return version(dirs[i]) > version(dirs[j]) })
	for _, d := range dirs {
		if _, err := os.Stat(filepath.Join(d, "postgres")); err == nil {
			return d, nil
		}
	}
	if p, err := exec.LookPath("initdb"); err == nil {
		if _, err := os.Stat(filepath.Join(filepath.Dir(p), "postgres")); err == nil {
			return filepath.Dir(p), nil
		}
	}
	return "", errors.New("PostgreSQL is not installed (no /usr/lib/postgresql/*/bin, no initdb on PATH): apt-get install postgresql")
}

func version(binDir string) int {
	n, _ := strconv.Atoi(filepath.Base(filepath.Dir(binDir)))
	return n
}

// Start starts a cluster for t, or skips t when PostgreSQL is not installed and CI is unset.
func Start(t testing.TB, opt Options) *Cluster {
	t.Helper()
	bin, err := Bin()
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("pgtest: %v (CI is set: the PostgreSQL tests must run)", err)
		}
		t.Skipf("pgtest: %v; skipping the PostgreSQL backend", err)
	}
	c, err := start(bin, opt)
	if err != nil {
		t.Fatalf("pgtest: %v", err)
	}
	t.Cleanup(c.stop)
	return c
}

// postgres and initdb refuse to run as root: as root, they run as nobody, in a directory
// nobody owns (t.TempDir is private to root).
func credential() (*syscall.Credential, int, int, error) {
	if os.Geteuid() != 0 {
		return nil, -1, -1, nil
	}
	u, err := user.Lookup("nobody")
	if err != nil {
		return nil, 0, 0, fmt.Errorf("running as root and there is no user nobody to run postgres as: %w", err)
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	return &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}, uid, gid, nil
}

func start(bin string, opt Options) (c *Cluster, err error) {
	cred, uid, gid, err := credential()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "orrery-pgtest-")
	if err != nil {
		return nil, err
	}
	c = &Cluster{dir: dir}
	defer func() {
		if err != nil {
			c.stop()
		}
	}()
	if cred != nil {
		if err := os.Chown(dir, uid, gid); err != nil {
			return nil, err
		}
	}
	data := filepath.Join(dir, "data")
	initdb := exec.Command(filepath.Join(bin, "initdb"), "-D", data, "-U", "postgres", "-A", "trust", "-E", "UTF8",
		"--locale=C", "--no-sync")
	initdb.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
	if out, err := initdb.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("initdb: %v: %s", err, out)
	}
	if c.Port, err = freePort(); err != nil {
		return nil, err
	}
	args := []string{"-D", data, "-k", dir, "-p", strconv.Itoa(c.Port), "-c", "listen_addresses=127.0.0.1",
		"-c", "max_connections=200"}
	if !opt.Durable {
		args = append(args, "-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off")
	}
	pg := exec.Command(filepath.Join(bin, "postgres"), args...)
	pg.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
	logf, err := os.Create(filepath.Join(dir, "postgres.log"))
	if err != nil {
		return nil, err
	}
	defer logf.Close()
	if cred != nil {
		_ = logf.Chown(uid, gid)
	}
	pg.Stdout, pg.Stderr = logf, logf
	if err := pg.Start(); err != nil {
		return nil, fmt.Errorf("postgres: %w", err)
	}
	exited := make(chan error, 1)
	go func() { exited <- pg.Wait() }()
	c.stopServer = func() {
		_ = pg.Process.Signal(syscall.SIGINT) // fast shutdown: roll back sessions, stop
		<-exited
	}
	c.admin, err = sql.Open("pgx", c.dsn("postgres"))
	if err != nil {
		return nil, err
	}
	// Wait until it accepts connections: a start, not a measurement, so the bound is generous.
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	for {
		if err = c.admin.PingContext(ctx); err == nil {
			return c, nil
		}
		select {
		case e := <-exited:
			exited <- e
			log, _ := os.ReadFile(filepath.Join(dir, "postgres.log"))
			return nil, fmt.Errorf("postgres exited at start (%v): %s", e, log)
		case <-ctx.Done():
			return nil, fmt.Errorf("postgres did not accept connections: %w", err)
		case <-time.After(50 * time.Millisecond):
		}
	}
}

func (c *Cluster) stop() {
	if c.admin != nil {
		c.admin.Close()
	}
	if c.stopServer != nil {
		c.stopServer()
	}
	os.RemoveAll(c.dir)
}

func (c *Cluster) dsn(db string) string {
	return fmt.Sprintf("postgres://postgres@127.0.0.1:%d/%s?sslmode=disable", c.Port, db)
}

// NewDB creates an empty database in the cluster and returns its URL, for one test's store.
func (c *Cluster) NewDB(t testing.TB) string {
	t.Helper()
	name := fmt.Sprintf("t%d", c.nextDB.Add(1))
	if _, err := c.admin.Exec("CREATE DATABASE " + name); err != nil {
		t.Fatalf("pgtest: create database: %v", err)
	}
	return c.dsn(name)
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

var shared struct {
	sync.Mutex
	c   *Cluster
	err error
}

// Shared is one cluster for a whole test binary, started by the first test that asks and
// stopped by Run: each test then takes its own database with NewDB. It skips (or, with CI
// set, fails) like Start.
func Shared(t testing.TB) *Cluster {
	t.Helper()
	shared.Lock()
	defer shared.Unlock()
	if shared.c == nil && shared.err == nil {
		bin, err := Bin()
		if err != nil {
			if os.Getenv("CI") != "" {
				t.Fatalf("pgtest: %v (CI is set: the PostgreSQL tests must run)", err)
			}
			t.Skipf("pgtest: %v; skipping the PostgreSQL backend", err)
		}
		shared.c, shared.err = start(bin, Options{})
	}
	if shared.err != nil {
		t.Fatalf("pgtest: %v", shared.err)
	}
	return shared.c
}

// Run runs a test binary's tests (from TestMain) and then stops the shared cluster.
func Run(m *testing.M) int {
	code := m.Run()
	shared.Lock()
	defer shared.Unlock()
	if shared.c != nil {
		shared.c.stop()
		shared.c = nil
	}
	return code
}
