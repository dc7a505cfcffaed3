package problem

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// answeringDirs hold every Go source that can answer an error (relative to this package).
var answeringDirs = []string{"../../service", "../../rest", "../../graph", "../../web"}

// typePattern is the form of every error type: a topic, a dot, a name.
var typePattern = regexp.MustCompile(`^[a-z][a-z0-9_]*\.[a-z][a-z0-9_]*$`)

// kindNamed are the kinds by the names sources write them with (problem.Invalid).
var kindNamed = map[string]Kind{
	"Internal": Internal, "Malformed": Malformed, "Unauthorized": Unauthorized, "NotFound": NotFound,
	"NotAllowed": NotAllowed, "Conflict": Conflict, "TooLarge": TooLarge, "Unsupported": Unsupported,
	"Invalid": Invalid, "Unavailable": Unavailable,
}

// An answer is one place the code builds an error of a type; kind and code are nil where they
// are not constants there.
type answer struct {
	pos  string
	pkg  string
	typ  string
	kind *Kind
	code *string
}

// TestRegistryListsEveryErrorType reads the sources that answer errors (generated files and
// tests left out) and finds every error type they build: the Type of an Error literal
// (problem.Error, or an alias of it), the type argument of a helper that builds one (found by
// following a parameter into such a literal or into another helper: problem.Validation, problem.NotFoundError,
// captureError, paymentError, incomplete, limitError, ...), a local variable holding either
// (only string literals may be assigned to it), and the "type" of an error written as a map. A
// type built any other way fails the test rather than go unseen, and so does any string literal
// of a registered topic ("order.x") that is not registered, which catches comparisons and tables
// keyed by type. Every type found must be registered, every registered type must be found, and
// where the kind and code are constants at the place the type is built they must match one of
// its entries. Where they are not (lifeElementNotConfigured takes its code from its caller;
// graph's writeRequestTooLarge writes a status, not a kind) only what is constant is checked.
func TestRegistryListsEveryErrorType(t *testing.T) {
	src := parseAnswering(t)
	answers, problems := src.answers()
	for _, p := range problems {
		t.Error(p)
	}

	registered := map[string][]Entry{}
	topics := map[string]bool{}
	for _, e := range Registry() {
		registered[e.Type] = append(registered[e.Type], e)
		topics[strings.SplitN(e.Type, ".", 2)[0]] = true
	}
	answered, answeredAt := map[string]bool{}, map[literal]bool{}
	for _, a := range answers {
		answered[a.typ], answeredAt[literal{a.pos, a.typ}] = true, true
		entries, ok := registered[a.typ]
		if !ok {
			t.Errorf("%s: error type %q is not in the registry (service/problem/registry.go)", a.pos, a.typ)
			continue
		}
		if a.pkg == "web" {
			// The console says a service's error as a page, with the status of its own mapping
			// and no code: only a type of its own has an entry to match.
			entries = slices.DeleteFunc(slices.Clone(entries), func(e Entry) bool { return !slices.Contains(ConsoleErrors, e) })
		}
		if len(entries) > 0 && !slices.ContainsFunc(entries, a.matches) {
			t.Errorf("%s: %q is answered as %s; the registry has it as %s", a.pos, a.typ, a.describe(), describeEntries(entries))
		}
	}
	for _, e := range Registry() {
		if !answered[e.Type] {
			t.Errorf("registry: nothing answers %q any more; remove its entry", e.Type)
		}
	}
	for _, lit := range src.literals {
		if _, ok := registered[lit.value]; !ok && !answeredAt[lit] && topics[strings.SplitN(lit.value, ".", 2)[0]] {
			t.Errorf("%s: %q reads as an error type but is not in the registry", lit.pos, lit.value)
		}
	}
}

func TestRegistryEntriesAreWellFormed(t *testing.T) {
	code := regexp.MustCompile(`^02-[0-9]{2}$`)
	for _, section := range [][]Entry{Errors, GraphQLErrors, ConsoleErrors} {
		seen := map[string]bool{}
		for _, e := range section {
			key := e.Type + " " + e.Code
			switch {
			case !typePattern.MatchString(e.Type):
				t.Errorf("%q is not a topic.name type", e.Type)
			case int(e.Kind) >= len(kindNames):
				t.Errorf("%q has no valid kind", e.Type)
			case !code.MatchString(e.Code) && !(e.Code == "" && slices.Contains(ConsoleErrors, e)):
				t.Errorf("%q has code %q, not 02-nn", e.Type, e.Code)
			case strings.TrimSpace(e.When) == "" || strings.Contains(e.When, "|") || strings.Contains(e.When, "\n"):
				t.Errorf("%q needs a When that fits one table cell", e.Type)
			case seen[key]:
				t.Errorf("%q with code %q is listed twice in one section", e.Type, e.Code)
			}
			seen[key] = true
		}
	}
}

func (a answer) matches(e Entry) bool {
	return (a.kind == nil || *a.kind == e.Kind) && (a.code == nil || *a.code == e.Code)
}

func (a answer) describe() string {
	kind, code := "(any kind)", "(any code)"
	if a.kind != nil {
		kind = a.kind.String()
	}
	if a.code != nil {
		code = strconv.Quote(*a.code)
	}
	return kind + " " + code
}

func describeEntries(entries []Entry) string {
	var out []string
	for _, e := range entries {
		out = append(out, fmt.Sprintf("%s %q", e.Kind, e.Code))
	}
	return strings.Join(out, " or ")
}

// source is the parsed Go code that answers errors.
type source struct {
	fset   *token.FileSet
	files  []*ast.File
	consts map[string]map[string]string // package name -> constant -> string value
	// errorPackages are problem and the packages naming problem.Error Error.
	errorPackages map[string]bool
	helpers       map[string]helper // "package.function" -> how it builds an error
	literals      []literal         // every string literal shaped like an error type
}

// A helper is a function whose parameter arg becomes the type of the error it builds.
type helper struct {
	arg  int
	kind *Kind
	code *string
}

type literal struct{ pos, value string }

func parseAnswering(t *testing.T) *source {
	t.Helper()
	s := &source{fset: token.NewFileSet(), consts: map[string]map[string]string{}, helpers: map[string]helper{},
		errorPackages: map[string]bool{"problem": true}}
	for _, dir := range answeringDirs {
		err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return err
			}
			f, err := parser.ParseFile(s.fset, path, nil, parser.ParseComments|parser.SkipObjectResolution)
			if err != nil {
				return err
			}
			if !ast.IsGenerated(f) {
				s.files = append(s.files, f)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if len(s.files) < 100 {
		t.Fatalf("found only %d source files under %v: is the test running in service/problem?", len(s.files), answeringDirs)
	}
	for _, f := range s.files {
		s.collectConsts(f)
		s.collectErrorAlias(f)
		ast.Inspect(f, func(n ast.Node) bool {
			if lit, ok := n.(*ast.BasicLit); ok {
				if v, ok := stringValue(lit); ok && typePattern.MatchString(v) {
					s.literals = append(s.literals, literal{s.pos(lit), v})
				}
			}
			return true
		})
	}
	s.findHelpers()
	return s
}

func (s *source) collectConsts(f *ast.File) {
	pkg := f.Name.Name
	if s.consts[pkg] == nil {
		s.consts[pkg] = map[string]string{}
	}
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		for _, spec := range g.Specs {
			vs := spec.(*ast.ValueSpec)
			for i, name := range vs.Names {
				if i < len(vs.Values) {
					if lit, ok := vs.Values[i].(*ast.BasicLit); ok {
						if v, ok := stringValue(lit); ok {
							s.consts[pkg][name.Name] = v
						}
					}
				}
			}
		}
	}
}

// findHelpers follows type parameters into error literals and other helpers until no new
// helper turns up.
func (s *source) findHelpers() {
	for changed := true; changed; {
		changed = false
		for _, f := range s.files {
			pkg := f.Name.Name
			for _, d := range f.Decls {
				fn, ok := d.(*ast.FuncDecl)
				if !ok || fn.Recv != nil || fn.Body == nil {
					continue
				}
				key := pkg + "." + fn.Name.Name
				if _, known := s.helpers[key]; known {
					continue
				}
				params := paramIndex(fn)
				ast.Inspect(fn.Body, func(n ast.Node) bool {
					var h helper
					var arg ast.Expr
					if lit, ok := n.(*ast.CompositeLit); ok && s.isErrorLiteral(pkg, lit) {
						fields := fieldsOf(lit)
						arg, h.kind, h.code = fields["Type"], s.kindOf(pkg, fields["Kind"]), s.codeOf(pkg, fields["Code"])
					} else if call, ok := n.(*ast.CallExpr); ok {
						callee, ok := s.helperCalled(pkg, call)
						if !ok || callee.arg >= len(call.Args) {
							return true
						}
						arg, h.kind, h.code = call.Args[callee.arg], callee.kind, callee.code
					}
					if id, ok := arg.(*ast.Ident); ok {
						if i, ok := params[id.Name]; ok {
							h.arg = i
							s.helpers[key] = h
							changed = true
						}
					}
					return true
				})
			}
		}
	}
}

// rebuildsKeptProblems are the functions that build a problem again from one kept earlier (an
// idempotent replay): its type was registered where it was first built.
var rebuildsKeptProblems = map[string]bool{"checkout.decodeProblem": true}

// answers walks every declaration and returns each error type built, and what it could not
// tell the type of.
func (s *source) answers() ([]answer, []string) {
	var out []answer
	var problems []string
	for _, f := range s.files {
		pkg := f.Name.Name
		for _, d := range f.Decls {
			fn, _ := d.(*ast.FuncDecl)
			if fn != nil && rebuildsKeptProblems[pkg+"."+fn.Name.Name] {
				continue
			}
			ast.Inspect(d, func(n ast.Node) bool {
				var expr ast.Expr
				var kind *Kind
				var code *string
				switch n := n.(type) {
				case *ast.CompositeLit:
					if s.isErrorLiteral(pkg, n) {
						fields := fieldsOf(n)
						if fields["Type"] == nil {
							problems = append(problems, s.pos(n)+": an error without a type")
							return true
						}
						expr, kind, code = fields["Type"], s.kindOf(pkg, fields["Kind"]), s.codeOf(pkg, fields["Code"])
					} else if typ, code := mapErrorType(n); typ != "" {
						out = append(out, answer{s.pos(n), pkg, typ, nil, s.codeOf(pkg, code)})
						return true
					}
				case *ast.CallExpr:
					h, ok := s.helperCalled(pkg, n)
					if !ok {
						return true
					}
					if h.arg >= len(n.Args) {
						problems = append(problems, s.pos(n)+": a helper called without its type argument")
						return true
					}
					expr, kind, code = n.Args[h.arg], h.kind, h.code
				}
				if expr == nil {
					return true
				}
				types, ok := s.typesOf(pkg, fn, expr)
				if !ok {
					problems = append(problems, fmt.Sprintf("%s: cannot tell which error type %s is: give it as a string literal, "+
						"a local variable assigned only literals, or a parameter of a helper function", s.pos(expr), exprText(expr)))
				}
				for _, typ := range types {
					out = append(out, answer{s.pos(expr), pkg, typ, kind, code})
				}
				return true
			})
		}
	}
	return out, problems
}

// typesOf reads the type an error is built with: a literal, a local variable given only
// literals, or (none) the parameter of a helper, whose callers are read instead.
func (s *source) typesOf(pkg string, fn *ast.FuncDecl, expr ast.Expr) ([]string, bool) {
	if lit, ok := expr.(*ast.BasicLit); ok {
		v, ok := stringValue(lit)
		return []string{v}, ok
	}
	id, ok := expr.(*ast.Ident)
	if !ok || fn == nil || fn.Body == nil {
		return nil, false
	}
	if _, isParam := paramIndex(fn)[id.Name]; isParam {
		_, isHelper := s.helpers[pkg+"."+fn.Name.Name]
		return nil, isHelper && fn.Recv == nil
	}
	var types []string
	resolved := true
	ast.Inspect(fn.Body, func(n ast.Node) bool {
		var lhs, rhs []ast.Expr
		switch n := n.(type) {
		case *ast.AssignStmt:
			lhs, rhs = n.Lhs, n.Rhs
		case *ast.ValueSpec:
			for _, name := range n.Names {
				lhs = append(lhs, name)
			}
			rhs = n.Values
		default:
			return true
		}
		for i, l := range lhs {
			if l, ok := l.(*ast.Ident); !ok || l.Name != id.Name {
				continue
			}
			var v string
			lit, ok := ast.Expr(nil), false
			if len(rhs) == len(lhs) {
				lit = rhs[i]
			}
			if b, isLit := lit.(*ast.BasicLit); isLit {
				v, ok = stringValue(b)
			}
			if !ok {
				resolved = false
				continue
			}
			types = append(types, v)
		}
		return true
	})
	return types, resolved && len(types) > 0
}

// helperCalled reports the helper a call calls: one of the package, or an exported one of
// another (service.Helper).
func (s *source) helperCalled(pkg string, call *ast.CallExpr) (helper, bool) {
	switch fun := call.Fun.(type) {
	case *ast.Ident:
		h, ok := s.helpers[pkg+"."+fun.Name]
		return h, ok
	case *ast.SelectorExpr:
		if x, ok := fun.X.(*ast.Ident); ok {
			h, ok := s.helpers[x.Name+"."+fun.Sel.Name]
			return h, ok
		}
	}
	return helper{}, false
}

func (s *source) kindOf(pkg string, e ast.Expr) *Kind {
	name := ""
	switch e := e.(type) {
	case *ast.SelectorExpr:
		if x, ok := e.X.(*ast.Ident); ok && x.Name == "problem" {
			name = e.Sel.Name
		}
	case *ast.Ident:
		if pkg == "problem" {
			name = e.Name
		}
	}
	if k, ok := kindNamed[name]; ok {
		return &k
	}
	return nil
}

func (s *source) codeOf(pkg string, e ast.Expr) *string {
	var v string
	var ok bool
	switch e := e.(type) {
	case *ast.BasicLit:
		v, ok = stringValue(e)
	case *ast.Ident:
		v, ok = s.consts[pkg][e.Name]
	case *ast.SelectorExpr:
		if x, isIdent := e.X.(*ast.Ident); isIdent {
			v, ok = s.consts[x.Name][e.Sel.Name]
		}
	case nil:
		v, ok = "", true
	}
	if !ok {
		return nil
	}
	return &v
}

func (s *source) pos(n ast.Node) string {
	p := s.fset.Position(n.Pos())
	return fmt.Sprintf("%s:%d", strings.TrimPrefix(filepath.ToSlash(p.Filename), "../../"), p.Line)
}

// isErrorLiteral reports whether lit builds a problem.Error, under its name in package problem
// or in a package that declares Error as an alias of it.
func (s *source) isErrorLiteral(pkg string, lit *ast.CompositeLit) bool {
	switch t := lit.Type.(type) {
	case *ast.Ident:
		return t.Name == "Error" && s.errorPackages[pkg]
	case *ast.SelectorExpr:
		x, ok := t.X.(*ast.Ident)
		return ok && t.Sel.Name == "Error" && s.errorPackages[x.Name]
	}
	return false
}

// collectErrorAlias notes a package that declares type Error = problem.Error.
func (s *source) collectErrorAlias(f *ast.File) {
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.TYPE {
			continue
		}
		for _, spec := range g.Specs {
			ts := spec.(*ast.TypeSpec)
			sel, ok := ts.Type.(*ast.SelectorExpr)
			if !ok || !ts.Assign.IsValid() || ts.Name.Name != "Error" || sel.Sel.Name != "Error" {
				continue
			}
			if x, ok := sel.X.(*ast.Ident); ok && x.Name == "problem" {
				s.errorPackages[f.Name.Name] = true
			}
		}
	}
}

func fieldsOf(lit *ast.CompositeLit) map[string]ast.Expr {
	out := map[string]ast.Expr{}
	for _, el := range lit.Elts {
		if kv, ok := el.(*ast.KeyValueExpr); ok {
			if k, ok := kv.Key.(*ast.Ident); ok {
				out[k.Name] = kv.Value
			}
		}
	}
	return out
}

// mapErrorType reads an error written out as a map ({"code": ..., "type": "x.y"}), as a front
// door writes one it answers before any error value exists.
func mapErrorType(lit *ast.CompositeLit) (typ string, code ast.Expr) {
	if _, ok := lit.Type.(*ast.MapType); !ok {
		return "", nil
	}
	for _, el := range lit.Elts {
		kv, ok := el.(*ast.KeyValueExpr)
		if !ok {
			continue
		}
		k, ok := kv.Key.(*ast.BasicLit)
		if !ok {
			continue
		}
		switch key, _ := stringValue(k); key {
		case "type":
			if v, ok := kv.Value.(*ast.BasicLit); ok {
				typ, _ = stringValue(v)
			}
		case "code":
			code = kv.Value
		}
	}
	return typ, code
}

func paramIndex(fn *ast.FuncDecl) map[string]int {
	out := map[string]int{}
	i := 0
	for _, field := range fn.Type.Params.List {
		if len(field.Names) == 0 {
			i++
		}
		for _, name := range field.Names {
			out[name.Name] = i
			i++
		}
	}
	return out
}

func stringValue(lit *ast.BasicLit) (string, bool) {
	if lit.Kind != token.STRING {
		return "", false
	}
	v, err := strconv.Unquote(lit.Value)
	return v, err == nil
}

func exprText(e ast.Expr) string {
	var b strings.Builder
	_ = printer.Fprint(&b, token.NewFileSet(), e)
	return b.String()
}
