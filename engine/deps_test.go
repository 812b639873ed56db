package engine_test

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestEngineImportsNeitherServiceNorGRPC keeps the arrows one way: engines are pure rules
// and may speak protobuf only through their own game messages, which carry no service.
func TestEngineImportsNeitherServiceNorGRPC(t *testing.T) {
	forbidden := []string{
		"google.golang.org/grpc",
		"github.com/orrery/orrery/service",
		"github.com/orrery/orrery/bots",
		"github.com/orrery/orrery/cmd",
		"github.com/orrery/orrery/proto/wire",
		"github.com/orrery/orrery/proto/orrery/v1", // the envelope package holds the gRPC service
	}
	fset := token.NewFileSet()
	checked := 0
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
			return err
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		checked++
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			for _, bad := range forbidden {
				if p == bad || strings.HasPrefix(p, bad+"/") {
					t.Errorf("%s imports %s", path, p)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked == 0 {
		t.Fatal("no Go files checked")
	}
}
