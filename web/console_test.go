package web_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/checkoutd/checkoutd/service"
	"github.com/checkoutd/checkoutd/service/admin"
	"github.com/checkoutd/checkoutd/service/input"
	"github.com/checkoutd/checkoutd/service/payment"
	"github.com/checkoutd/checkoutd/service/platform"
	"github.com/checkoutd/checkoutd/service/servicetest"
	"github.com/checkoutd/checkoutd/service/shops"
	"github.com/checkoutd/checkoutd/web"
)

// adminClient is an HTTP client of the console (no browser), with its cookies.
type adminClient struct {
	t     *testing.T
	srv   *httptest.Server
	http  *http.Client
	svc   *service.Service
	clock *fakeClock
	token string
	csrf  string
}

func newAdmin(t *testing.T, db *platform.Database, tlsServer bool, opts ...service.Option) *adminClient {
	t.Helper()
	clock := &fakeClock{now: time.Now()}
	svc := service.New(db, append([]service.Option{service.WithClock(clock.Now), service.WithOutboundAllowPrivate(true)}, opts...)...)
	mux := http.NewServeMux()
	web.Register(mux, svc)
	srv := httptest.NewUnstartedServer(mux)
	if tlsServer {
		srv.StartTLS()
	} else {
		srv.Start()
	}
	t.Cleanup(srv.Close)
	created, err := svc.Shops.CreateShop(context.Background(), shops.CreateShopInput{Identifier: "shop-a"})
	if err != nil {
		t.Fatal(err)
	}
	jar, _ := cookiejar.New(nil)
	client := srv.Client()
	client.Jar = jar
	client.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	return &adminClient{t: t, srv: srv, http: client, svc: svc, clock: clock, token: created.AccessToken}
}

var csrfInput = regexp.MustCompile(`name="csrf_token" value="([^"]+)"`)

func (a *adminClient) get(path string) (*http.Response, string) {
	a.t.Helper()
	res, err := a.http.Get(a.srv.URL + path)
	if err != nil {
		a.t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	if m := csrfInput.FindStringSubmatch(string(body)); m != nil {
		a.csrf = m[1]
	}
	return res, string(body)
}

func (a *adminClient) post(path string, form url.Values) (*http.Response, string) {
	a.t.Helper()
	res, err := a.http.PostForm(a.srv.URL+path, form)
	if err != nil {
		a.t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	return res, string(body)
}

// signIn signs in through the form, as a browser would, and keeps the session's CSRF token.
func (a *adminClient) signIn(identifier, token string) *http.Response {
	a.t.Helper()
	a.get("/admin/signin")
	res, _ := a.post("/admin/signin", url.Values{"csrf_token": {a.csrf}, "shop_identifier": {identifier}, "access_token": {token}})
	if res.StatusCode == http.StatusSeeOther {
		a.get("/admin")
	}
	return res
}

func eachAdmin(t *testing.T, fn func(t *testing.T, a *adminClient)) {
	servicetest.Each(t, func(t *testing.T, db *platform.Database) { fn(t, newAdmin(t, db, false)) })
}

func wantStatus(t *testing.T, res *http.Response, status int) {
	t.Helper()
	if res.StatusCode != status {
		t.Fatalf("%s %s answered %d, want %d", res.Request.Method, res.Request.URL.Path, res.StatusCode, status)
	}
}

func TestAPostWithoutTheSessionsCSRFTokenIsRefusedAndChangesNothing(t *testing.T) {
	eachAdmin(t, func(t *testing.T, a *adminClient) {
		wantStatus(t, a.signIn("shop-a", a.token), http.StatusSeeOther)
		res, body := a.post("/admin/cors", url.Values{"domain": {"https://evil.example.com"}})
		wantStatus(t, res, http.StatusForbidden)
		if !strings.Contains(body, "Nothing was changed") {
			t.Fatalf("the refusal says %q", body)
		}
		res, _ = a.post("/admin/cors", url.Values{"domain": {"https://evil.example.com"}, "csrf_token": {"forged"}})
		wantStatus(t, res, http.StatusForbidden)
		sh, _ := a.svc.Shops.ShopByIdentifier(context.Background(), "shop-a")
		if domains, _ := a.svc.Shops.CorsDomains(context.Background(), sh); len(domains) != 0 {
			t.Fatalf("refused posts added %v", domains)
		}
		res, _ = a.post("/admin/cors", url.Values{"domain": {"https://shop.example.com"}, "csrf_token": {a.csrf}})
		wantStatus(t, res, http.StatusSeeOther)
	})
}

func TestTheSignInFormHasItsOwnCSRFToken(t *testing.T) {
	eachAdmin(t, func(t *testing.T, a *adminClient) {
		res, _ := a.post("/admin/signin", url.Values{"shop_identifier": {"shop-a"}, "access_token": {a.token}})
		wantStatus(t, res, http.StatusForbidden)
		wantStatus(t, a.signIn("shop-a", a.token), http.StatusSeeOther)
	})
}

func TestSignInRefusesAWrongTokenAndAnotherShopsTokenAlike(t *testing.T) {
	eachAdmin(t, func(t *testing.T, a *adminClient) {
		other, err := a.svc.Shops.CreateShop(context.Background(), shops.CreateShopInput{Identifier: "shop-b"})
		if err != nil {
			t.Fatal(err)
		}
		for _, token := range []string{"ckd_wrong", other.AccessToken} {
			res := a.signIn("shop-a", token)
			wantStatus(t, res, http.StatusUnauthorized)
		}
		res := a.signIn("no-such-shop", a.token)
		wantStatus(t, res, http.StatusUnauthorized)
		res, _ = a.get("/admin")
		wantStatus(t, res, http.StatusSeeOther)
	})
}

func TestSignOutEndsTheSession(t *testing.T) {
	eachAdmin(t, func(t *testing.T, a *adminClient) {
		a.signIn("shop-a", a.token)
		u, _ := url.Parse(a.srv.URL + "/admin")
		stolen := a.http.Jar.Cookies(u)
		res, _ := a.post("/admin/signout", url.Values{"csrf_token": {a.csrf}})
		wantStatus(t, res, http.StatusSeeOther)
		a.http.Jar.SetCookies(u, stolen)
		res, _ = a.get("/admin")
		wantStatus(t, res, http.StatusSeeOther)
		if loc := res.Header.Get("Location"); !strings.HasPrefix(loc, "/admin/signin") {
			t.Fatalf("after sign-out the old cookie leads to %q", loc)
		}
	})
}

func TestASessionExpiresAfterHalfAnHourIdleAndTwelveHoursInAll(t *testing.T) {
	eachAdmin(t, func(t *testing.T, a *adminClient) {
		a.signIn("shop-a", a.token)
		a.clock.Advance(admin.IdleTimeout - time.Minute)
		res, _ := a.get("/admin")
		wantStatus(t, res, http.StatusOK)
		a.clock.Advance(admin.IdleTimeout + time.Second)
		res, _ = a.get("/admin/orders")
		wantStatus(t, res, http.StatusSeeOther)
		if loc := res.Header.Get("Location"); loc != "/admin/signin?next=%2Fadmin%2Forders" {
			t.Fatalf("an expired session is sent to %q", loc)
		}

		a.signIn("shop-a", a.token)
		end := a.clock.Now().Add(admin.MaxSessionAge)
		for a.clock.Now().Add(admin.IdleTimeout / 2).Before(end) {
			a.clock.Advance(admin.IdleTimeout / 2)
			res, _ = a.get("/admin")
			wantStatus(t, res, http.StatusOK)
		}
		a.clock.Advance(end.Sub(a.clock.Now()) + time.Second)
		res, _ = a.get("/admin")
		wantStatus(t, res, http.StatusSeeOther)
	})
}

func TestTheSessionCookieIsHttpOnlySameSiteStrictAndSecureOverTLS(t *testing.T) {
	for _, overTLS := range []bool{false, true} {
		a := newAdmin(t, servicetest.SQLite(t), overTLS)
		res := a.signIn("shop-a", a.token)
		var session *http.Cookie
		for _, ck := range res.Cookies() {
			if ck.Name == "checkoutd_admin" {
				session = ck
			}
		}
		if session == nil || !session.HttpOnly || session.SameSite != http.SameSiteStrictMode || session.Secure != overTLS || session.Path != "/admin" {
			t.Fatalf("over TLS %v the session cookie is %+v", overTLS, session)
		}
	}
}

func TestEveryAnswerForbidsInlineScriptAndThePagesHaveNone(t *testing.T) {
	eachAdmin(t, func(t *testing.T, a *adminClient) {
		res, body := a.get("/admin/signin")
		pages := map[string]string{"/admin/signin": body}
		check := func(res *http.Response) {
			t.Helper()
			csp := res.Header.Get("Content-Security-Policy")
			if csp != web.ContentSecurityPolicy || !strings.Contains(csp, "script-src 'self'") || strings.Contains(csp, "unsafe") {
				t.Fatalf("%s has Content-Security-Policy %q", res.Request.URL.Path, csp)
			}
		}
		check(res)
		a.signIn("shop-a", a.token)
		for _, path := range []string{"/admin", "/admin/life-elements/new", "/admin/orders", "/admin/no-such-page", "/admin/static/admin.css", "/admin/static/" + web.HTMX} {
			res, body := a.get(path)
			check(res)
			if strings.HasSuffix(path, ".css") || strings.HasSuffix(path, ".js") {
				continue
			}
			pages[path] = body
		}
		inline := regexp.MustCompile(`<script(?:\s+[^>]*)?>|\sstyle=|\son[a-z]+=`)
		for path, body := range pages {
			for _, m := range inline.FindAllString(body, -1) {
				if !strings.Contains(m, "src=") {
					t.Fatalf("%s carries inline script or style: %q", path, m)
				}
			}
		}
	})
}

func TestWhatAnAdminTypesIsEscapedOnThePage(t *testing.T) {
	eachAdmin(t, func(t *testing.T, a *adminClient) {
		a.signIn("shop-a", a.token)
		res, _ := a.post("/admin/life-elements", url.Values{"csrf_token": {a.csrf}, "location": {"shipping"}, "input_type": {"text"},
			"meta_data_field": {"note"}, "order_asc": {"1"}, "input_label": {`<script>alert("x")</script>`}})
		wantStatus(t, res, http.StatusSeeOther)
		_, body := a.get("/admin/life-elements")
		if strings.Contains(body, `<script>alert`) || !strings.Contains(body, "&lt;script&gt;alert") {
			t.Fatal("the label was not escaped")
		}
	})
}

func TestAnotherShopsObjectsCannotBeChangedByTheirIDs(t *testing.T) {
	eachAdmin(t, func(t *testing.T, a *adminClient) {
		ctx := context.Background()
		other, err := a.svc.Shops.CreateShop(ctx, shops.CreateShopInput{Identifier: "shop-b"})
		if err != nil {
			t.Fatal(err)
		}
		el, err := a.svc.Shops.CreateLifeElement(ctx, other.Shop, shops.LifeElementInput{Location: input.Of("shipping"), InputType: input.Of("text"),
			MetaDataField: input.Of("b_field"), OrderAsc: input.Of(1), InputRequired: input.Of(false)})
		if err != nil {
			t.Fatal(err)
		}
		a.signIn("shop-a", a.token)
		res, _ := a.post("/admin/life-elements/"+el.PublicID, url.Values{"csrf_token": {a.csrf}, "location": {"billing_address_after"}, "input_type": {"text"},
			"meta_data_field": {"hijacked"}, "order_asc": {"1"}})
		if res.StatusCode == http.StatusSeeOther {
			t.Fatal("shop A's console updated shop B's element")
		}
		res, _ = a.post("/admin/life-elements/"+el.PublicID+"/delete", url.Values{"csrf_token": {a.csrf}})
		if res.StatusCode == http.StatusSeeOther {
			t.Fatal("shop A's console deleted shop B's element")
		}
		els, err := a.svc.Shops.LifeElements(ctx, other.Shop)
		if err != nil || len(els) != 1 || els[0].MetaDataField != "b_field" {
			t.Fatalf("shop B's elements: %v %v", els, err)
		}
	})
}

func TestSignInSendsBackOnlyToConsolePages(t *testing.T) {
	eachAdmin(t, func(t *testing.T, a *adminClient) {
		for next, want := range map[string]string{"/admin/orders?status=open": "/admin/orders?status=open", "https://evil.example.com/admin": "/admin",
			"//evil.example.com/admin": "/admin", "/checkout/shop": "/admin"} {
			a.get("/admin/signin?next=" + url.QueryEscape(next))
			res, _ := a.post("/admin/signin", url.Values{"csrf_token": {a.csrf}, "shop_identifier": {"shop-a"}, "access_token": {a.token}, "next": {next}})
			if loc := res.Header.Get("Location"); loc != want {
				t.Fatalf("after sign-in with next=%q the console sends to %q, want %q", next, loc, want)
			}
		}
	})
}

// The htmx file is the npm release named in its file name, unmodified (web/static/README.md).
func TestTheVendoredHTMXIsThePinnedRelease(t *testing.T) {
	b, err := os.ReadFile("static/" + web.HTMX)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(b)
	if got := hex.EncodeToString(sum[:]); got != "d6fdc75f204e6bdefa99b69bf1e6d4ac69b8a364f77929f45c13476b4000f717" {
		t.Fatalf("%s has sha256 %s: not the pinned htmx.org 2.0.11 dist/htmx.min.js", web.HTMX, got)
	}
}

func TestListsShowTwentyRowsAPageWithLinksToTheOthers(t *testing.T) {
	eachAdmin(t, func(t *testing.T, a *adminClient) {
		ctx := context.Background()
		sh, _ := a.svc.Shops.ShopByIdentifier(ctx, "shop-a")
		for i := range 25 {
			if _, err := a.svc.Shops.AddCorsDomain(ctx, sh, fmt.Sprintf("https://s%02d.example.com", i)); err != nil {
				t.Fatal(err)
			}
			if _, err := a.svc.Payments.IssueGiftCard(ctx, sh, payment.IssueGiftCardInput{Amount: 1000, CardToken: fmt.Sprintf("CARD-%02d", i)}); err != nil {
				t.Fatal(err)
			}
		}
		a.signIn("shop-a", a.token)
		for path, rows := range map[string]*regexp.Regexp{"/admin/cors": regexp.MustCompile(`<code>https://s\d\d\.example\.com</code>`), "/admin/gift-cards": regexp.MustCompile(`<td>CARD-\d\d</td>`)} {
			_, first := a.get(path)
			_, second := a.get(path + "?page=2")
			if n := len(rows.FindAllString(first, -1)); n != 20 || !strings.Contains(first, `href="`+path+`?page=2"`) {
				t.Fatalf("%s page 1 shows %d rows, or no link to page 2", path, n)
			}
			if n := len(rows.FindAllString(second, -1)); n != 5 || !strings.Contains(second, "25 in all · page 2 of 2") {
				t.Fatalf("%s page 2 shows %d rows", path, n)
			}
		}
	})
}
