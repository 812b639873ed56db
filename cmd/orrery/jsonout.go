package main

import (
	"encoding/json"
	"fmt"
	"io"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
)

// Every --json output uses the protos' own field names (snake_case: match_id, seed_hash), as
// the HTTP API and the Python and JavaScript clients do, whether it prints a response as it
// came (printProto) or a result of the command's own (printJSON, with snake_case tags).

// protoJSON is how a response is printed: the .proto field names, indented, 64-bit integers
// as strings (protojson's rule, since 64 bits do not fit a JSON number everywhere).
var protoJSON = protojson.MarshalOptions{Multiline: true, UseProtoNames: true}

// printProto writes m as JSON with the .proto field names.
func printProto(w io.Writer, m proto.Message) error {
	b, err := protoJSON.Marshal(m)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintln(w, string(b))
	return err
}

// printJSON writes v as indented JSON.
func printJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
