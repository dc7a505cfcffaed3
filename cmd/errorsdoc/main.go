// Command errorsdoc writes docs/errors.md: its tables from the registry of errors in
// service/problem, its text from errors.md.tmpl. make generate runs it from the module's root.
package main

import (
	"bytes"
	_ "embed"
	"flag"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"text/template"

	"github.com/checkoutd/checkoutd/graph"
	"github.com/checkoutd/checkoutd/rest"
	"github.com/checkoutd/checkoutd/service/problem"
	"github.com/checkoutd/checkoutd/web"
)

//go:embed errors.md.tmpl
var page string

func main() {
	out := flag.String("o", "docs/errors.md", "the file to write")
	flag.Parse()
	doc, err := render()
	if err == nil {
		err = os.WriteFile(*out, doc, 0o644)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "errorsdoc:", err)
		os.Exit(1)
	}
}

// render is docs/errors.md as the registry and the template make it. Each section's status is
// the one its front door answers with, asked of that front door.
func render() ([]byte, error) {
	t, err := template.New("errors.md").Option("missingkey=error").Parse(page)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	err = t.Execute(&b, map[string]string{
		"Errors":        table(problem.Errors, rest.StatusOf, true),
		"GraphQLErrors": table(problem.GraphQLErrors, graph.StatusOf, true),
		"ConsoleErrors": table(problem.ConsoleErrors, web.StatusOf, false),
	})
	return b.Bytes(), err
}

// table lists entries by status; entries of one status keep the registry's order, which
// groups them by topic.
func table(entries []problem.Entry, statusOf func(problem.Kind) int, withCode bool) string {
	entries = slices.Clone(entries)
	slices.SortStableFunc(entries, func(a, b problem.Entry) int { return statusOf(a.Kind) - statusOf(b.Kind) })
	var b strings.Builder
	if withCode {
		b.WriteString("| Status | Code | Type | When |\n|---|---|---|---|\n")
	} else {
		b.WriteString("| Status | Type | When |\n|---|---|---|\n")
	}
	for _, e := range entries {
		cells := []string{strconv.Itoa(statusOf(e.Kind)), e.Code, e.Type, e.When}
		if !withCode {
			cells = slices.Delete(cells, 1, 2)
		}
		b.WriteString("| " + strings.Join(cells, " | ") + " |\n")
	}
	return strings.TrimSuffix(b.String(), "\n")
}
