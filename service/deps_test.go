package service

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestArrows_PointOneWay keeps the rooms of the arena apart: a match, the cluster and the
// journal never reach up into the service that wires them, and a match knows nothing of
// clusters (docs/architecture.md). Tests are included: a test that imported service would
// tie the package to it all the same.
func TestArrows_PointOneWay(t *testing.T) {
	const module = "github.com/orrery/orrery/"
	forbidden := map[string][]string{
		"match":   {"service", "service/cluster", "service/journal", "service/ladder", "service/tournament"},
		"cluster": {"service", "service/match", "service/ladder", "service/tournament"},
		"journal": {"service", "service/match", "service/cluster", "service/ladder", "service/tournament"},
	}
	for dir, bad := range forbidden {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil || len(files) == 0 {
			t.Fatalf("service/%s: no Go files (%v)", dir, err)
		}
		for _, path := range files {
			f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
			if err != nil {
				t.Fatal(err)
			}
			for _, imp := range f.Imports {
				p, _ := strconv.Unquote(imp.Path.Value)
				for _, b := range bad {
					if p == module+b {
						t.Errorf("service/%s imports %s", path, p)
					}
				}
			}
		}
	}
}

// TestArrows_NoChildPointsAtTheServer: nothing below service names the server's type; each
// takes the small interface it owns (match.Host, cluster.Local, ladder.Arena, tournament.Arena).
func TestArrows_NoChildPointsAtTheServer(t *testing.T) {
	checked := 0
	err := filepath.WalkDir(".", func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") || !strings.Contains(path, "/") {
			return err
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
		if err != nil {
			return err
		}
		checked++
		ast.Inspect(f, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok && sel.Sel.Name == "Server" {
				if x, ok := sel.X.(*ast.Ident); ok && x.Name == "service" {
					t.Errorf("%s names service.Server", path)
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked == 0 {
		t.Fatal("no Go files checked")
	}
}
