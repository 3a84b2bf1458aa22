package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/flowmem/flowmem/"

// TestHookStaysStraight holds the hook to one straight, synchronous
// pipeline (issue 13): no package the hook runs — the front end, the
// capture pipeline and everything of flowmem's they import — starts a
// goroutine or tunes the garbage collector, and no flowmem code at all
// imports unsafe. Speed comes from the design, not from parallel paths.
func TestHookStaysStraight(t *testing.T) {
	t.Parallel()
	fset := token.NewFileSet()
	// parse reads a folder's non-test files that a default build compiles.
	parse := func(dir string) []*ast.File {
		paths, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		var files []*ast.File
		for _, path := range paths {
			if strings.HasSuffix(path, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(fset, path, nil, parser.ParseComments)
			if err != nil {
				t.Fatal(err)
			}
			if tagged(f) {
				continue
			}
			files = append(files, f)
		}
		return files
	}

	// The hook's packages: the front end's and the pipeline's, and every
	// flowmem package they import, transitively.
	hook := map[string][]*ast.File{}
	queue := []string{"cmd/flowmem-hook", "internal/capture"}
	for len(queue) > 0 {
		dir := queue[0]
		queue = queue[1:]
		if _, seen := hook[dir]; seen {
			continue
		}
		files := parse(filepath.Join("../..", dir))
		if len(files) == 0 {
			t.Fatalf("%s: no source files; the walk is wrong", dir)
		}
		hook[dir] = files
		for _, f := range files {
			for _, im := range f.Imports {
				p, _ := strconv.Unquote(im.Path.Value)
				if rest, ok := strings.CutPrefix(p, module); ok {
					queue = append(queue, rest)
				}
			}
		}
	}
	for _, want := range []string{"internal/hookfront", "internal/review", "internal/mdstore", "internal/redact"} {
		if _, ok := hook[want]; !ok {
			t.Fatalf("the hook's packages %v lack %s; the walk is wrong", keys(hook), want)
		}
	}
	for _, files := range hook {
		for _, f := range files {
			ast.Inspect(f, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.GoStmt:
					t.Errorf("%s: a goroutine on the hook's path: the hook is one synchronous pipeline", fset.Position(n.Pos()))
				case *ast.SelectorExpr:
					if x, ok := n.X.(*ast.Ident); ok && (x.Name == "debug" && (n.Sel.Name == "SetGCPercent" || n.Sel.Name == "SetMemoryLimit") || x.Name == "runtime" && n.Sel.Name == "GC") {
						t.Errorf("%s: %s.%s on the hook's path: no garbage-collector tuning", fset.Position(n.Pos()), x.Name, n.Sel.Name)
					}
				}
				return true
			})
		}
	}

	// No unsafe anywhere in flowmem's own code.
	n := 0
	for _, root := range []string{"../../cmd", "../../internal"} {
		err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.IsDir() {
				return nil
			}
			if d.Name() == "testdata" {
				return filepath.SkipDir
			}
			for _, f := range parse(path) {
				n++
				for _, im := range f.Imports {
					if p, _ := strconv.Unquote(im.Path.Value); p == "unsafe" {
						t.Errorf("%s imports unsafe", fset.Position(im.Pos()))
					}
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if n < 50 {
		t.Fatalf("only %d source files found; the walk is wrong", n)
	}
}

// tagged says whether a file builds only under the quality tag or is a
// generator (//go:build ignore): not part of the program. Files built for
// one system (//go:build unix) are.
func tagged(f *ast.File) bool {
	for _, g := range f.Comments {
		if g.Pos() >= f.Package {
			break
		}
		for _, c := range g.List {
			if strings.HasPrefix(c.Text, "//go:build ") && (strings.Contains(c.Text, "ignore") || strings.Contains(c.Text, "quality")) {
				return true
			}
		}
	}
	return false
}

func keys(m map[string][]*ast.File) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}
