package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// explained is an error said in a sentence, for a person; it keeps the gRPC status it came
// from, so code that asks for the code still gets it.
type explained struct {
	msg string
	st  *status.Status
}

func (e *explained) Error() string              { return e.msg }
func (e *explained) GRPCStatus() *status.Status { return e.st }

// explain rewrites a gRPC error from a call to server as a sentence that says what failed
// and what to do, in place of "rpc error: code = ... desc = ...". Other errors pass as
// they are.
func explain(err error, server string) error {
	var se interface{ GRPCStatus() *status.Status }
	if err == nil || !errors.As(err, &se) {
		return err
	}
	if _, done := se.(*explained); done {
		return err
	}
	st := se.GRPCStatus()
	inner, ok := se.(error)
	if !ok || st == nil || st.Code() == codes.OK {
		return err
	}
	msg := strings.Replace(err.Error(), inner.Error(), sentence(st.Code(), st.Message(), server), 1)
	return &explained{msg: msg, st: st}
}

// sentence says what a gRPC code from server means to the person at the command line, with
// the server's own message (which never carries Go formatting or secrets: the server's
// errors are written for clients).
func sentence(code codes.Code, msg, server string) string {
	at := "the server"
	if server != "" {
		at = "the server at " + server
	}
	switch code {
	case codes.Unavailable:
		if unreachable(msg) {
			return fmt.Sprintf("no Orrery server at %s; start one with `orrery serve` or pass --server", orDefault(server))
		}
		return fmt.Sprintf("%s is unavailable (%s); it may be restarting: try again in a moment", at, msg)
	case codes.DeadlineExceeded:
		return fmt.Sprintf("%s did not answer in time (%s); try again, or check that it is not overloaded", at, msg)
	case codes.Canceled:
		return "cancelled before the server answered"
	case codes.Unauthenticated:
		return fmt.Sprintf("%s refused the key (%s); pass --key or set ORRERY_API_KEY to a bot's API key from `orrery bot register`, or the server's admin key", at, msg)
	case codes.PermissionDenied:
		return fmt.Sprintf("not allowed with this key (%s); the server's admin key may do it", msg)
	case codes.NotFound:
		return fmt.Sprintf("not found on %s: %s; `orrery matches`, `orrery tournaments` and `orrery bot list` show what is there", strings.TrimPrefix(at, "the server at "), msg)
	case codes.InvalidArgument:
		return fmt.Sprintf("%s refused the request: %s; see --help for the flags", at, msg)
	case codes.FailedPrecondition:
		return fmt.Sprintf("not possible now: %s", msg)
	case codes.AlreadyExists:
		return fmt.Sprintf("already exists: %s; choose another name", msg)
	case codes.ResourceExhausted:
		return fmt.Sprintf("%s is at a limit: %s; wait and try again, or ask for less", at, msg)
	case codes.Aborted:
		return fmt.Sprintf("interrupted by a concurrent change: %s; try again", msg)
	case codes.OutOfRange:
		return fmt.Sprintf("out of range: %s", msg)
	case codes.Unimplemented:
		return fmt.Sprintf("%s does not offer this (%s); it may be an older Orrery, or not run the ladder", at, msg)
	case codes.Internal, codes.Unknown, codes.DataLoss:
		return fmt.Sprintf("%s failed: %s; its log says more", at, msg)
	}
	return fmt.Sprintf("%s answered %s: %s", at, code, msg)
}

// unreachable reports whether an Unavailable status means nothing listens at the address,
// as opposed to a server that is there and going away.
func unreachable(msg string) bool {
	for _, s := range []string{"connection refused", "no such host", "dial", "connect:", "i/o timeout", "produced zero addresses"} {
		if strings.Contains(msg, s) {
			return true
		}
	}
	return false
}

func orDefault(server string) string {
	if server == "" {
		return "the address given"
	}
	return server
}

// serverOf is the server a command talks to: its --server flag, or "" for an in-process one.
func serverOf(cmd *cobra.Command) string {
	if f := cmd.Flags().Lookup("server"); f != nil {
		return f.Value.String()
	}
	return ""
}
