// Command probe is the hosted runtime's test module (GOOS=wasip1 GOARCH=wasm). Each decision's
// match_id says what it does: answer with a hash of what it read, misbehave in one way, or try
// to reach outside its sandbox and report what it got.
package main

import (
	"bufio"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"strings"
	"time"
	"unsafe"
)

//go:wasmimport wasi_snapshot_preview1 sock_accept
func sockAccept(fd int32, flags int32, result unsafe.Pointer) int32

var hoard [][]byte

func main() {
	fmt.Println(`{"receive": {"omit_text": true}}`)
	in := bufio.NewReaderSize(os.Stdin, 1<<20)
	for {
		line, err := in.ReadString('\n')
		if err != nil {
			return
		}
		sum := sha256.Sum256([]byte(line))
		note := hex.EncodeToString(sum[:])
		switch mode := field(line, "match_id"); mode {
		case "loop":
			for {
			}
		case "sleep":
			time.Sleep(time.Hour)
		case "alloc":
			for {
				hoard = append(hoard, make([]byte, 1<<20))
			}
		case "garbage":
			fmt.Println("hello, host")
			continue
		case "long":
			fmt.Println(strings.Repeat("x", 100<<10))
			continue
		case "twice":
			fmt.Println(`{"legal_index": 0}`)
		case "exit":
			fmt.Fprintln(os.Stderr, "probe: exiting with 3")
			os.Exit(3)
		case "panic":
			panic("probe: boom")
		case "text":
			var d struct {
				Text string `json:"text"`
			}
			if err := json.Unmarshal([]byte(line), &d); err != nil {
				fmt.Fprintln(os.Stderr, "probe: bad decision:", err)
				os.Exit(1)
			}
			note = fmt.Sprintf("text=%q", d.Text)
		case "sandbox":
			note = sandbox()
		}
		fmt.Printf("{\"legal_index\": 0, \"debug\": %q}\n", note)
	}
}

// field is the string value of a top-level field of a decision line, found without decoding
// all of it (decisions of some games are large, and the probe reads thousands).
func field(line, name string) string {
	i := strings.Index(line, `"`+name+`":`)
	if i < 0 {
		return ""
	}
	rest := strings.TrimLeft(line[i+len(name)+3:], " ")
	if !strings.HasPrefix(rest, `"`) {
		return ""
	}
	end := strings.IndexByte(rest[1:], '"')
	if end < 0 {
		return ""
	}
	return rest[1 : end+1]
}

// sandbox tries each way out and reports what happened, as JSON.
func sandbox() string {
	report := map[string]string{}
	try := func(name string, err error) {
		if err == nil {
			report[name] = "opened"
		} else {
			report[name] = "refused: " + err.Error()
		}
	}
	_, err := os.Open("/etc/passwd")
	try("file", err)
	_, err = os.ReadDir("/")
	try("dir", err)
	_, err = os.Open("/dev/urandom")
	try("urandom", err)
	_, err = os.Create("written")
	try("create", err)
	_, err = net.Dial("tcp", "127.0.0.1:80")
	try("dial", err)
	// Go's net on wasip1 simulates listeners inside the program; the host's sockets are
	// reached only through WASI's sock_* calls on a socket the host opened for it.
	report["accept"] = "refused"
	for fd := int32(0); fd < 16; fd++ {
		var conn int32
		if errno := sockAccept(fd, 0, unsafe.Pointer(&conn)); errno == 0 {
			report["accept"] = fmt.Sprintf("opened on fd %d", fd)
		}
	}
	b := make([]byte, 16)
	rand.Read(b)
	report["entropy"] = hex.EncodeToString(b)
	report["env"] = strings.Join(os.Environ(), ",")
	report["args"] = strings.Join(os.Args, ",")
	report["year"] = fmt.Sprint(time.Now().Year())
	out, _ := json.Marshal(report)
	return string(out)
}
