package main

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

// TestNoTestMutatesPackageState: no test assigns to a package-level
// variable, its own package's or an imported one's. A test that swaps a
// package variable cannot run beside the others (t.Parallel) and leaks into
// them when it fails halfway; code that tests need to vary takes an option.
func TestNoTestMutatesPackageState(t *testing.T) {
	t.Parallel()
	dirs := map[string][]string{} // folder -> its .go files
	err := filepath.WalkDir("../..", func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != "../.." && (d.Name() == "testdata" || d.Name() == "node_modules" || strings.HasPrefix(d.Name(), ".")) {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(path, ".go") {
			dirs[filepath.Dir(path)] = append(dirs[filepath.Dir(path)], path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	tests := 0
	for _, paths := range dirs {
		vars := map[string]bool{} // the folder's package-level variables
		var testFiles []*ast.File
		for _, path := range paths {
			f, err := parser.ParseFile(fset, path, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			if strings.HasSuffix(path, "_test.go") {
				testFiles = append(testFiles, f)
				continue
			}
			for _, d := range f.Decls {
				if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.VAR {
					for _, s := range g.Specs {
						for _, n := range s.(*ast.ValueSpec).Names {
							vars[n.Name] = true
						}
					}
				}
			}
		}
		for _, f := range testFiles {
			tests++
			imports := map[string]bool{}
			for _, im := range f.Imports {
				p, _ := strconv.Unquote(im.Path.Value)
				name := filepath.Base(p)
				if im.Name != nil {
					name = im.Name.Name
				}
				imports[name] = true
			}
			ast.Inspect(f, func(n ast.Node) bool {
				var lhs []ast.Expr
				switch s := n.(type) {
				case *ast.AssignStmt:
					if s.Tok != token.DEFINE {
						lhs = s.Lhs
					}
				case *ast.IncDecStmt:
					lhs = []ast.Expr{s.X}
				}
				for _, e := range lhs {
					if name, ok := packageVar(e, vars, imports); ok {
						t.Errorf("%s: a test assigns to the package variable %s; pass what the test varies as an option", fset.Position(e.Pos()), name)
					}
				}
				return true
			})
		}
	}
	if tests < 50 {
		t.Fatalf("only %d test files found; the walk is wrong", tests)
	}
}

// packageVar reports whether an assignment's target lives in a
// package-level variable: an identifier the file does not declare (a
// local shadows it) naming one of vars, or a member of an imported package,
// possibly behind fields, indexes and dereferences.
func packageVar(e ast.Expr, vars, imports map[string]bool) (string, bool) {
	for {
		switch x := e.(type) {
		case *ast.SelectorExpr:
			if id, ok := x.X.(*ast.Ident); ok && id.Obj == nil && imports[id.Name] {
				return id.Name + "." + x.Sel.Name, true
			}
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.StarExpr:
			e = x.X
		case *ast.ParenExpr:
			e = x.X
		case *ast.Ident:
			// Obj is set for names declared in this file (locals, and
			// package-level ones of test files); nil means another file.
			return x.Name, x.Obj == nil && vars[x.Name]
		default:
			return "", false
		}
	}
}
