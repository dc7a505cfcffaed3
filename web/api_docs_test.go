package web_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/checkoutd/checkoutd/rest"
	"github.com/checkoutd/checkoutd/service"
	"github.com/checkoutd/checkoutd/web"
)

func TestTheVendoredSwaggerUIIsThePinnedRelease(t *testing.T) {
	for file, want := range map[string]string{
		// swagger-ui-dist 5.35.0 swagger-ui-bundle.js and swagger-ui.css.
		web.SwaggerUIScript: "e6a898692f2d768e807c3ba4626068a69a2c5dd960dd6c76f3e4d3a3de180af2",
		web.SwaggerUIStyle:  "5ed08757e53da3e026d6cbecc61fe5d43585c9560b302d534ad56692519a273d",
	} {
		b, err := os.ReadFile("static/" + file)
		if err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(b)
		if got := hex.EncodeToString(sum[:]); got != want {
			t.Errorf("%s has sha256 %s: not the pinned release (static/README.md)", file, got)
		}
	}
}

// GET /docs renders docs/openapi.yaml, as GET /openapi.yaml serves it, from the service's own
// files alone: in Chromium, with nothing asked of any other host, the page shows the
// document's title and its operations, and reports no error and no refusal of its policy.
func TestTheAPIReferencePageRendersTheOpenAPIDocumentFromTheServiceAlone(t *testing.T) {
	if browserMissing != "" {
		t.Skip(browserMissing)
	}
	t.Parallel()
	// The two front doors the page needs, as serve mounts them; neither touches the database.
	svc := &service.Service{}
	mux := http.NewServeMux()
	rest.Register(mux, svc)
	web.Register(mux, svc)
	srv := httptest.NewServer(rest.Common(mux))
	t.Cleanup(srv.Close)

	var watch pageWatch
	tab, cancelTab := chromedp.NewContext(browser, chromedp.WithNewBrowserContext(), chromedp.WithListener(watch.event))
	t.Cleanup(cancelTab)
	// The tab opens on this first call, which must not carry a timeout: its end would close the tab.
	if err := chromedp.Do(tab); err != nil {
		t.Fatalf("opening a tab: %v", err)
	}
	// The network is off but for this server: any other request fails at once.
	if _, err := chromedp.Call(tab, network.SetBlockedURLs, network.SetBlockedURLsParams{URLPatterns: []*network.BlockPattern{
		{URLPattern: srv.URL + "/*", Block: false}, {URLPattern: "*://*:*/*", Block: true},
	}}); err != nil {
		t.Fatalf("blocking the network: %v", err)
	}
	ctx, cancel := context.WithTimeout(tab, 90*time.Second)
	defer cancel()
	poll := func(what, js string) {
		t.Helper()
		if _, err := chromedp.Run(ctx, chromedp.PollFunction[bool](`() => { try { return !!(`+js+`) } catch (e) { return false } }`,
			chromedp.WithPollingTimeout(60*time.Second))); err != nil {
			_, problems := watch.snapshot()
			text, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.body.innerText.slice(0, 3000)`))
			t.Fatalf("%s: %v\nproblems: %v\nthe page reads: %s", what, err, problems, text)
		}
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/docs")); err != nil {
		t.Fatalf("loading /docs: %v", err)
	}
	poll("the page shows the document's title", `document.querySelector(".info .title").textContent.startsWith("checkoutd REST API")`)
	// The page opens with the tags folded (a hundred operations unfolded at once is a long page);
	// opening one lists its operations.
	poll("the page lists the tags, Orders (backend) among them", `document.querySelector('.opblock-tag[data-tag="Orders (backend)"]')`)
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`.opblock-tag[data-tag="Orders (backend)"]`))); err != nil {
		t.Fatalf("opening the Orders (backend) tag: %v", err)
	}
	poll("the page lists the operations, Initialize an order among them", `[...document.querySelectorAll(".opblock-summary")].some(op =>
		op.querySelector(".opblock-summary-path").textContent.replace(/\u200b/g, "") === "/checkout/orders/{shop}/init" &&
		op.querySelector(".opblock-summary-description").textContent === "Initialize an order")`)
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`section.models h4`))); err != nil {
		t.Fatalf("opening the schemas: %v", err)
	}
	poll("the error envelope is among the schemas", `document.querySelector("section.models").innerText.includes("ErrorEnvelope")`)

	requests, problems := watch.snapshot()
	var readDocument bool
	for _, r := range requests {
		if !strings.HasPrefix(r.URL, srv.URL+"/") && !strings.HasPrefix(r.URL, "data:") {
			t.Errorf("the page asked another host: %s %s", r.Method, r.URL)
		}
		readDocument = readDocument || r.URL == srv.URL+"/openapi.yaml"
	}
	if !readDocument {
		t.Error("the page did not read /openapi.yaml")
	}
	for _, p := range problems {
		t.Errorf("the page reported %s", p)
	}
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
