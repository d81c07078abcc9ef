// Command methods counts the exported methods of each named type in the
// packages below the folders it is given (test files left out) and fails
// when a type has more than -max of them. scripts/lint.sh runs it over jobs/
// and ui/ with -max 25, so that no type grows into a hub again.
//
//	go run ./scripts/methods -max 25 -top 5 jobs ui
//
// A method counts for the type named by its receiver, pointer or not; the
// methods a type gets by embedding are not counted (they are the embedded
// type's, counted there).
package main

import (
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

func main() {
	max := flag.Int("max", 25, "the most exported methods a type may have")
	top := flag.Int("top", 0, "also print the N types with the most exported methods")
	flag.Parse()
	counts := map[string]int{}
	for _, root := range flag.Args() {
		if err := count(root, counts); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
	}
	names := make([]string, 0, len(counts))
	for n := range counts {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool {
		if counts[names[i]] != counts[names[j]] {
			return counts[names[i]] > counts[names[j]]
		}
		return names[i] < names[j]
	})
	for i := 0; i < *top && i < len(names); i++ {
		fmt.Printf("%4d %s\n", counts[names[i]], names[i])
	}
	bad := false
	for _, n := range names {
		if counts[n] > *max {
			fmt.Fprintf(os.Stderr, "  %s has %d exported methods; at most %d\n", n, counts[n], *max)
			bad = true
		}
	}
	if bad {
		os.Exit(1)
	}
}

// count adds the exported methods of the Go files below root, by
// "folder.Type".
func count(root string, counts map[string]int) error {
	fset := token.NewFileSet()
	return filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		for _, decl := range f.Decls {
			if fn, ok := decl.(*ast.FuncDecl); ok && fn.Recv != nil && fn.Name.IsExported() {
				counts[filepath.Dir(path)+"."+receiver(fn.Recv.List[0].Type)]++
			}
		}
		return nil
	})
}

// receiver names the type of a method's receiver: T, *T, T[P] and *T[P]
// are all T.
func receiver(e ast.Expr) string {
	for {
		switch t := e.(type) {
		case *ast.StarExpr:
			e = t.X
		case *ast.IndexExpr:
			e = t.X
		case *ast.IndexListExpr:
			e = t.X
		case *ast.Ident:
			return t.Name
		default:
			return fmt.Sprintf("%T", e)
		}
	}
}
