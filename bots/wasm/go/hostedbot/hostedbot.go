// Package hostedbot runs a Go bot as an Orrery hosted bot: a WASI module the server runs
// itself (docs/hosted.md). Build the program with GOOS=wasip1 GOARCH=wasm; its main calls
// Run with the bot, in one function as bots.Func makes one:
//
//	func main() {
//		hostedbot.Run(bots.Func(func(d *orreryv1.Decision) *orreryv1.Answer {
//			return bots.Index(d, 0)
//		}))
//	}
//
// Decisions arrive in the protobuf encoding (base64 lines), which decodes many times faster
// than the JSON. The module's random source is the host's, seeded from the match seed and the seat, so
// math/rand/v2's top-level functions (and a seed drawn from them) replay with the match.
package hostedbot

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"

	"google.golang.org/protobuf/encoding/protojson"

	"github.com/orrery/orrery/bots"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
)

// A Noter is a bot with a note on its last answer, kept with the step as its "debug".
type Noter interface {
	Note() string
}

// Run plays b on stdin and stdout until the host closes stdin, and exits on a broken line.
func Run(b bots.Bot) {
	if err := Serve(os.Stdin, os.Stdout, b); err != nil {
		fmt.Fprintln(os.Stderr, "hostedbot:", err)
		os.Exit(1)
	}
}

var encode = protojson.MarshalOptions{UseProtoNames: true}

// Serve speaks the line protocol on r and w: the first line (the protobuf encoding, and
// what b receives if it is a bots.Receiver), then one answer line per decision line. It
// returns nil when r ends.
func Serve(r io.Reader, w io.Writer, b bots.Bot) error {
	in := bufio.NewReaderSize(r, 64<<10)
	out := bufio.NewWriter(w)
	first := []byte(`{"encoding":"protobuf"`)
	if rc, ok := b.(bots.Receiver); ok {
		recv, err := encode.Marshal(rc.Receive())
		if err != nil {
			return err
		}
		first = append(append(first, `,"receive":`...), recv...)
	}
	out.Write(append(first, "}\n"...))
	if err := out.Flush(); err != nil {
		return err
	}
	var d orreryv1.Decision
	var bin, answer []byte
	for {
		line, err := in.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			// A decision longer than the buffer: gather it.
			long := append([]byte(nil), line...)
			for err == bufio.ErrBufferFull {
				line, err = in.ReadSlice('\n')
				long = append(long, line...)
			}
			line = long
		}
		if err == io.EOF && len(line) == 0 {
			return nil
		}
		if err != nil && err != io.EOF {
			return err
		}
		line = bytes.TrimRight(line, "\r\n")
		if bin, err = base64.StdEncoding.AppendDecode(bin[:0], line); err != nil {
			return fmt.Errorf("read a decision: %w", err)
		}
		// The generated decoder (vtprotobuf), not the reflective one: in a WebAssembly
		// module reflection costs most of a decision.
		d.Reset()
		if err := d.UnmarshalVT(bin); err != nil {
			return fmt.Errorf("read a decision: %w", err)
		}
		if answer, err = appendAnswer(answer[:0], b, &d); err != nil {
			return err
		}
		out.Write(answer)
		if err := out.Flush(); err != nil {
			return err
		}
	}
}

// appendAnswer appends b's answer to d as the host reads it, one line, to line. It is built
// by hand: encoding/json's reflection costs a module as much as the bot's own thought.
func appendAnswer(line []byte, b bots.Bot, d *orreryv1.Decision) ([]byte, error) {
	a := b.Act(d)
	switch c := a.GetChoice().(type) {
	case *orreryv1.Answer_LegalIndex:
		line = strconv.AppendInt(append(line, `{"legal_index":`...), int64(c.LegalIndex), 10)
	case *orreryv1.Answer_Notation:
		line = appendString(append(line, `{"notation":`...), c.Notation)
	case *orreryv1.Answer_Action:
		raw, err := encode.Marshal(c.Action)
		if err != nil {
			return line, err
		}
		line = append(append(line, `{"action":`...), raw...)
	default:
		line = append(line, `{"legal_index":0`...) // no answer: the first legal action is always legal
	}
	if n, ok := b.(Noter); ok {
		if note := n.Note(); note != "" {
			line = appendString(append(line, `,"debug":`...), note)
		}
	}
	return append(line, "}\n"...), nil
}

// appendString appends s as a JSON string. strconv's Go quoting is JSON's but for \x and
// \U escapes, and for invalid UTF-8: those take encoding/json's path.
func appendString(line []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == 0x7f || c >= 0x80 {
			quoted, _ := json.Marshal(s)
			return append(line, quoted...)
		}
	}
	return strconv.AppendQuote(line, s)
}
