package main

import (
	"io"
	"os"
	"strings"

	"golang.org/x/term"
)

// screen shows a changing text: on a terminal it redraws in place, elsewhere it prints each
// new version after the last. Either way an unchanged text is not drawn again.
type screen struct {
	w    io.Writer
	tty  bool
	last string
}

func newScreen(w io.Writer) *screen {
	s := &screen{w: w}
	if f, ok := w.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		s.tty = true
	}
	return s
}

// draw shows text if it differs from what is shown, and reports whether it drew.
func (s *screen) draw(text string) bool {
	if text == s.last {
		return false
	}
	if !s.tty {
		if s.last != "" {
			io.WriteString(s.w, "\n")
		}
		io.WriteString(s.w, text)
		s.last = text
		return true
	}
	// Home, each line over the old one (clearing its rest), then clear below: no flicker
	// from clearing the whole screen first.
	var b strings.Builder
	b.WriteString("\x1b[H")
	for _, line := range strings.SplitAfter(text, "\n") {
		if line == "" {
			continue
		}
		b.WriteString(strings.TrimSuffix(line, "\n"))
		b.WriteString("\x1b[K")
		if strings.HasSuffix(line, "\n") {
			b.WriteString("\n")
		}
	}
	b.WriteString("\x1b[J")
	if s.last == "" {
		io.WriteString(s.w, "\x1b[2J")
	}
	io.WriteString(s.w, b.String())
	s.last = text
	return true
}
