package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/checkoutd/checkoutd/service"
	"github.com/checkoutd/checkoutd/service/platform"
	"github.com/checkoutd/checkoutd/service/servicetest"
)

// chromium starts a headless Chromium for one test, or skips the test when there is none; under
// CI=true the test must run, and fails instead.
func chromium(t *testing.T) context.Context {
	t.Helper()
	path, err := exec.LookPath("chromium")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("Chromium is not installed, and under CI=true the browser tests must run (.ci/run installs it: apt-get install -y chromium)")
		}
		t.Skip("Chromium is not installed (apt-get install -y chromium): browser test skipped")
	}
	// The flags Chromium needs to start as root on a machine without network (DESIGN.md).
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(path), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true), chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(1280, 900))
	t.Cleanup(cancelAlloc)
	browser, cancel := chromedp.NewContext(alloc)
	t.Cleanup(cancel)
	if err := chromedp.Do(browser); err != nil {
		t.Fatalf("starting Chromium: %v", err)
	}
	return browser
}

// pageWatch records what a tab asks the network for and what goes wrong in it.
type pageWatch struct {
	mu       sync.Mutex
	requests []*network.Request
	problems []string
}

func (w *pageWatch) event(ev any) {
	w.mu.Lock()
	defer w.mu.Unlock()
	switch ev := ev.(type) {
	case *network.EventRequestWillBeSent:
		w.requests = append(w.requests, ev.Request)
	case *network.EventResponseReceived:
		if ev.Response.Status >= 400 {
			w.problems = append(w.problems, fmt.Sprintf("%d from %s", ev.Response.Status, ev.Response.URL))
		}
	case *runtime.EventExceptionThrown:
		text := ev.ExceptionDetails.Text
		if ex := ev.ExceptionDetails.Exception; ex != nil {
			text += " " + ex.Description
		}
		w.problems = append(w.problems, "exception: "+text)
	case *log.EventEntryAdded:
		// Refused loads and Content-Security-Policy violations land here.
		if ev.Entry.Level == log.EntryLevelError {
			w.problems = append(w.problems, "log: "+ev.Entry.Text)
		}
	case *runtime.EventConsoleAPICalled:
		if ev.Type == runtime.ConsoleAPICalledTypeError {
			var args []string
			for _, a := range ev.Args {
				args = append(args, string(a.Value)+a.Description)
			}
			w.problems = append(w.problems, "console.error: "+strings.Join(args, " "))
		}
	}
}

func (w *pageWatch) snapshot() ([]*network.Request, []string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]*network.Request(nil), w.requests...), append([]string(nil), w.problems...)
}

// GET /graphql serves GraphiQL from the service's own files: on a machine with no network it
// loads, reads the schema's documentation through introspection, and runs a query with the
// access token put in its Headers pane.
func TestGraphiQLLoadsFromTheServiceAloneShowsTheSchemaAndRunsAQueryWithTheAccessToken(t *testing.T) {
	browser := chromium(t)
	servicetest.Each(t, func(t *testing.T, db *platform.Database) {
		svc := service.New(db)
		token, err := svc.EnsureDemoShop(context.Background(), demoShop)
		if err != nil {
			t.Fatal(err)
		}
		srv := httptest.NewServer(newHandler(svc))
		t.Cleanup(srv.Close)

		var watch pageWatch
		tab, cancelTab := chromedp.NewContext(browser, chromedp.WithNewBrowserContext(), chromedp.WithListener(watch.event))
		t.Cleanup(cancelTab)
		// The tab opens on this first call, which must not carry a timeout: its end would close the tab.
		if err := chromedp.Do(tab); err != nil {
			t.Fatalf("opening a tab: %v", err)
		}
		ctx, cancel := context.WithTimeout(tab, 60*time.Second)
		defer cancel()
		// poll calls the JavaScript function fn with args until it returns true (or something
		// truthy): fn waits for the page to show something, or does something once it can.
		poll := func(what, fn string, args ...any) {
			t.Helper()
			raw, _ := json.Marshal(append([]any{}, args...))
			js := `(args => (` + fn + `)(...args))(` + string(raw) + `)`
			if _, err := chromedp.Run(ctx, chromedp.PollFunction[bool](`() => { try { return !!(`+js+`) } catch (e) { return false } }`,
				chromedp.WithPollingTimeout(30*time.Second))); err != nil {
				_, problems := watch.snapshot()
				text, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.body.innerText.slice(0, 3000)`))
				t.Fatalf("%s: %v\nproblems: %v\nthe page reads: %s", what, err, problems, text)
			}
		}
		do := func(what string, actions ...chromedp.Action[chromedp.Void]) {
			t.Helper()
			if err := chromedp.Do(ctx, actions...); err != nil {
				t.Fatalf("%s: %v", what, err)
			}
		}

		do("loading GraphiQL", chromedp.Navigate(srv.URL+"/graphql"))
		// The schema: the documentation explorer lists the root types, and Query's fields.
		do("opening the documentation", chromedp.Click(chromedp.CSS(`.graphiql-sidebar button[aria-label="Show Documentation Explorer"]`)))
		rootType := `.graphiql-doc-explorer-content a.graphiql-doc-explorer-type-name`
		poll("the documentation shows the root types", `sel => document.querySelector(sel).textContent === "Query"`, rootType)
		do("opening Query", chromedp.Click(chromedp.CSS(rootType)))
		poll("the documentation shows Query's fields", `() => document.querySelector(".graphiql-doc-explorer-title").textContent === "Query" &&
			[...document.querySelectorAll(".graphiql-doc-explorer-field-name")].some(f => f.textContent === "shop")`)

		// The Headers pane comes filled with the header to complete; the token goes in it.
		// GraphiQL's editors are CodeMirror 5's, each reachable from its element; the pane of the
		// headers also holds the hidden editor of the variables.
		editor := `area => [...document.querySelectorAll(area + " .CodeMirror")].filter(e => !e.parentElement.classList.contains("hidden"))[0].CodeMirror`
		poll("the headers pane offers the Authorization header", `area => (`+editor+`)(area).getValue().includes('"Authorization": "Bearer <access token>"')`, ".graphiql-editor-tool")
		headers := `(area, token) => { const cm = (` + editor + `)(area); cm.setValue(cm.getValue().replace("<access token>", token)); return true }`
		poll("putting the token in the headers", headers, ".graphiql-editor-tool", token)
		poll("writing the query", `(area, q) => { (`+editor+`)(area).setValue(q); return true }`, ".graphiql-query-editor", `{ shop { identifier name } }`)
		do("running the query", chromedp.Click(chromedp.CSS(`button.graphiql-execute-button`)))
		poll("the result pane shows the shop", `area => (`+editor+`)(area).getValue().includes('"identifier": "demo-shop"')`, ".graphiql-response")

		// A dialog adds GraphiQL's one style element, which the page's policy lets through by its nonce.
		do("opening the settings", chromedp.Click(chromedp.CSS(`button[aria-label="Open settings dialog"]`)))
		poll("the settings dialog locks the page's scrolling", `() => [...document.styleSheets].some(s => s.ownerNode.nonce && s.cssRules.length > 0)`)

		requests, problems := watch.snapshot()
		var sentToken bool
		for _, r := range requests {
			if !strings.HasPrefix(r.URL, srv.URL+"/") && !strings.HasPrefix(r.URL, "data:") {
				t.Errorf("the page asked another host: %s %s", r.Method, r.URL)
			}
			if r.Method == "POST" && r.URL == srv.URL+"/graphql" && r.Headers["Authorization"] == "Bearer "+token {
				sentToken = true
			}
		}
		if !sentToken {
			t.Errorf("no query went to /graphql with the access token")
		}
		for _, p := range problems {
			t.Errorf("the page reported %s", p)
		}
	})
}

// The page itself: its scripts and styles are the service's own files, it runs no inline script,
// and its policy lets it talk to this server only.
func TestTheGraphiQLPageLoadsOnlyTheServicesOwnFilesUnderItsPolicy(t *testing.T) {
	servicetest.Each(t, func(t *testing.T, db *platform.Database) {
		srv := httptest.NewServer(newHandler(service.New(db)))
		t.Cleanup(srv.Close)
		get := func(path string) (*http.Response, string) {
			t.Helper()
			res, err := http.Get(srv.URL + path)
			if err != nil {
				t.Fatal(err)
			}
			defer res.Body.Close()
			b, _ := io.ReadAll(res.Body)
			return res, string(b)
		}
		res, page := get("/graphql")
		if res.StatusCode != 200 || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/html") {
			t.Fatalf("GET /graphql: %d %s", res.StatusCode, res.Header.Get("Content-Type"))
		}
		csp := res.Header.Get("Content-Security-Policy")
		for _, want := range []string{"default-src 'none'", "script-src 'self';", "connect-src 'self'", "style-src 'self' 'nonce-"} {
			if !strings.Contains(csp, want) {
				t.Errorf("policy %q lacks %q", csp, want)
			}
		}
		if again, _ := get("/graphql"); again.Header.Get("Content-Security-Policy") == csp {
			t.Errorf("two answers share the nonce of %q", csp)
		}
		if strings.Contains(page, "http://") || strings.Contains(page, "https://") || regexp.MustCompile(`<script[^>]*>[^<]`).MatchString(page) {
			t.Fatalf("the page loads something from elsewhere or runs inline script:\n%s", page)
		}
		files := regexp.MustCompile(`(?:src|href)="([^"]*)"`).FindAllStringSubmatch(page, -1)
		if len(files) != 7 {
			t.Fatalf("the page loads %v, want GraphiQL, React, ReactDOM, the starter, their two style sheets and the blank icon", files)
		}
		for _, f := range files {
			if f[1] == "data:," {
				continue
			}
			if !strings.HasPrefix(f[1], "/admin/static/") {
				t.Fatalf("%s is not one of the service's static files", f[1])
			}
			if res, body := get(f[1]); res.StatusCode != 200 || body == "" {
				t.Fatalf("%s: %d", f[1], res.StatusCode)
			}
		}
		// A GET that carries a query is GraphQL's, not the page's.
		if res, body := get("/graphql?query=" + url.QueryEscape("{ __typename }")); res.StatusCode != 200 || !strings.Contains(body, `"__typename":"Query"`) {
			t.Fatalf("GraphQL over GET: %d %s", res.StatusCode, body)
		}
	})
}
