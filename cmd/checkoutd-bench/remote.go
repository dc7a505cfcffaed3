package main

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"time"

	json "github.com/segmentio/encoding/json"

	"github.com/checkoutd/checkoutd/service/hmacsig"
	"github.com/checkoutd/checkoutd/service/rsa"
)

// remoteShoppers is the load of the remote figure: enough to keep the server busy, few enough
// that the remotes' own CPU (in this process) does not starve it.
const remoteShoppers = 8

const remoteSecret = "bench-remote-secret"

// RemoteReport is the guest checkout's server CPU under a remote state authority and under all
// five API overrides, beside the same checkout with neither, taking turns on one shop.
type RemoteReport struct {
	Shoppers  int          `json:"shoppers"`
	Plain     RemoteFigure `json:"plain"`
	RSA       RemoteFigure `json:"rsa"`
	Overrides RemoteFigure `json:"overrides"`
	// BadSignatures counts calls the bench's remotes refused: any is a failure of the run.
	BadSignatures int64 `json:"bad_signatures"`
}

// RemoteFigure is one configuration's checkouts.
type RemoteFigure struct {
	PerSecond float64 `json:"per_second"`
	// CPUms is the server's CPU time per guest checkout.
	CPUms        float64 `json:"server_cpu_ms_per_checkout"`
	P99          float64 `json:"p99_ms"`
	RemoteCalls  int64   `json:"remote_calls"`
	Errors       int     `json:"errors"`
	FirstError   string  `json:"first_error,omitempty"`
	CallsPerFlow float64 `json:"remote_calls_per_checkout"`
}

// remotes are an RSA and an override server that answer at once, each checking every call's
// signature.
type remotes struct {
	rsa, override *httptest.Server
	calls         atomic.Int64
	badSigs       atomic.Int64
}

func startRemotes() *remotes {
	r := &remotes{}
	signed := func(next func(w http.ResponseWriter, body []byte, path string)) http.HandlerFunc {
		return func(w http.ResponseWriter, req *http.Request) {
			r.calls.Add(1)
			if hmacsig.Verify(req.Header, []byte(remoteSecret), time.Now()) != nil {
				r.badSigs.Add(1)
				http.Error(w, `{"error":"bad signature"}`, http.StatusUnauthorized)
				return
			}
			body, _ := io.ReadAll(io.LimitReader(req.Body, 1<<20))
			w.Header().Set("Content-Type", "application/json")
			next(w, body, req.URL.Path)
		}
	}
	r.rsa = httptest.NewServer(signed(answerRSA))
	r.override = httptest.NewServer(signed(answerOverride))
	return r
}

func (r *remotes) close() { r.rsa.Close(); r.override.Close() }

// answerRSA is a remote state authority that applies the customer, addresses and shipping line
// it is sent, offers one shipping option at any address and otherwise answers the state as it is.
// It decodes and encodes with the JSON package checkoutd's RSA client uses (segmentio's), and
// each event's data once, so that the remotes take as little as they can of the CPU they share
// with the server.
func answerRSA(w http.ResponseWriter, body []byte, path string) {
	if !strings.HasSuffix(path, "/process_order_events") {
		_, _ = w.Write([]byte(`{}`))
		return
	}
	var b struct {
		OrderState rsa.OrderState `json:"order_state"`
		Events     []struct {
			EventName string          `json:"event_name"`
			Data      json.RawMessage `json:"data"`
		} `json:"events"`
	}
	if _, err := json.Parse(body, &b, json.UseNumber); err != nil {
		http.Error(w, `{"error":"bad body"}`, http.StatusBadRequest)
		return
	}
	st := b.OrderState
	for _, ev := range b.Events {
		switch ev.EventName {
		case "set_customer":
			var c rsa.Customer
			_ = json.Unmarshal(ev.Data, &c)
			st.Customer = &c
		case "set_shipping_address", "set_billing_address":
			var a rsa.Address
			_ = json.Unmarshal(ev.Data, &a)
			if ev.EventName == "set_billing_address" {
				st.BillingAddress = &a
			} else {
				st.ShippingAddress = &a
			}
		case "set_shipping_line":
			st.SelectedShipping = &rsa.SelectedShipping{RateName: "Standard", Cost: "10.00", Code: "standard", Taxes: []rsa.Tax{}}
		}
	}
	st.ShippingOptions = []rsa.ShippingOption{}
	if st.ShippingAddress != nil {
		st.ShippingOptions = []rsa.ShippingOption{{RateName: "Standard", Cost: "10.00", Code: "standard"}}
	}
	answer, _ := json.Marshal(st)
	_, _ = w.Write(answer)
}

// answerOverride answers each override type as docs/overrides.md has it: the address valid, one
// shipping line, no discount code, the inventory there, 4% tax on each line.
func answerOverride(w http.ResponseWriter, body []byte, _ string) {
	var req struct {
		OverrideType string `json:"override_type"`
		Order        struct {
			LineItems []struct {
				LineItemKey string `json:"line_item_key"`
				Quantity    int64  `json:"quantity"`
				Price       int64  `json:"price"`
			} `json:"line_items"`
		} `json:"order"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		http.Error(w, `{"error":"bad body"}`, http.StatusBadRequest)
		return
	}
	var answer any
	switch req.OverrideType {
	case "address_validate":
		answer = map[string]any{"valid": true}
	case "shipping":
		answer = map[string]any{"shipping_lines": []map[string]any{{"id": "standard", "description": "Standard", "amount": 1000, "code": "standard"}}}
	case "discount":
		answer = map[string]any{"valid": false, "message": "no codes here"}
	case "inventory":
		answer = map[string]any{"result": "pass", "failed_items": []any{}}
	case "tax":
		lines := map[string][]map[string]any{}
		for _, li := range req.Order.LineItems {
			lines[li.LineItemKey] = []map[string]any{{"name": "Sales tax", "value": li.Price * li.Quantity * 4 / 100}}
		}
		answer = map[string]any{"line_taxes": lines, "shipping_taxes": []any{}}
	default:
		http.Error(w, `{"error":"unknown override_type"}`, http.StatusBadRequest)
		return
	}
	_ = json.NewEncoder(w).Encode(answer)
}

// remoteRounds: the three configurations take turns, each round running each for its share of
// the figure's time, so that a change of the machine's load during the figure weighs on all
// three alike (the machines this runs on are shared).
const remoteRounds = 3

// remoteRun adds up one configuration's share of each round.
type remoteRun struct {
	done, errors int
	firstError   string
	cpu, elapsed time.Duration
	flows        []time.Duration
	calls        int64
}

func (r *remoteRun) add(res loadResult, calls int64) {
	r.done += res.Done
	r.errors += res.Errors
	if r.firstError == "" {
		r.firstError = res.FirstError
	}
	r.cpu += res.ServerCPU
	r.elapsed += res.Elapsed
	r.flows = append(r.flows, res.Flow...)
	r.calls += calls
}

func (r *remoteRun) figure() RemoteFigure {
	f := RemoteFigure{P99: percentile(r.flows, .99), Errors: r.errors, FirstError: r.firstError, RemoteCalls: r.calls}
	if r.elapsed > 0 {
		f.PerSecond = float64(r.done) / r.elapsed.Seconds()
	}
	if r.done > 0 {
		f.CPUms = float64(r.cpu.Microseconds()) / 1000 / float64(r.done)
		f.CallsPerFlow = float64(r.calls) / float64(r.done)
	}
	return f
}

// benchmarkRemote runs the guest checkout on the bench shop as it is, under an RSA, and under the
// five overrides, in turns (remoteRounds), removing each configuration after its turn.
func benchmarkRemote(c config, srv *server, cl *client, gatewayID string) (RemoteReport, error) {
	rm := startRemotes()
	defer rm.close()
	out := RemoteReport{Shoppers: remoteShoppers}
	checkout := func() ([]time.Duration, error) {
		lat, _, err := cl.guestCheckout(gatewayID)
		return lat, err
	}
	share := c.duration / remoteRounds
	measure := func(into *remoteRun) {
		before := rm.calls.Load()
		res := runLoad(remoteShoppers, share, srv, checkout)
		into.add(res, rm.calls.Load()-before)
	}
	var plain, underRSA, underOverrides remoteRun
	for range remoteRounds {
		measure(&plain)
		if err := rm.configureRSA(cl); err != nil {
			return out, err
		}
		measure(&underRSA)
		if _, err := cl.call("DELETE", "/checkout/shop/bench/rsa_config", cl.token, nil, nil); err != nil {
			return out, fmt.Errorf("removing the RSA: %w", err)
		}
		ids, err := rm.configureOverrides(cl)
		if err != nil {
			return out, err
		}
		measure(&underOverrides)
		for _, id := range ids {
			if _, err := cl.call("DELETE", "/checkout/shop/bench/overrides/"+id, cl.token, nil, nil); err != nil {
				return out, fmt.Errorf("removing an override: %w", err)
			}
		}
	}
	out.Plain, out.RSA, out.Overrides = plain.figure(), underRSA.figure(), underOverrides.figure()
	out.BadSignatures = rm.badSigs.Load()
	return out, nil
}

// configureRSA makes the bench's RSA the bench shop's remote state authority.
func (r *remotes) configureRSA(cl *client) error {
	if _, err := cl.call("POST", "/checkout/shop/bench/rsa_config", cl.token, map[string]any{"url": r.rsa.URL, "shared_secret": remoteSecret}, nil); err != nil {
		return fmt.Errorf("configuring the RSA: %w", err)
	}
	return nil
}

// configureOverrides gives the bench shop all five API overrides, and returns their ids.
func (r *remotes) configureOverrides(cl *client) ([]string, error) {
	var ids []string
	for _, typ := range []string{"address_validate", "shipping", "discount", "inventory", "tax"} {
		a, err := cl.call("POST", "/checkout/shop/bench/overrides", cl.token, map[string]any{"override_type": typ, "url": r.override.URL, "shared_secret": remoteSecret}, nil)
		if err != nil {
			return nil, fmt.Errorf("configuring the %s override: %w", typ, err)
		}
		o, _ := dataOf(a)["override"].(map[string]any)
		id, _ := o["public_id"].(string)
		if id == "" {
			return nil, fmt.Errorf("the %s override's answer has no public_id: %s", typ, truncate(string(a.raw), 300))
		}
		ids = append(ids, id)
	}
	return ids, nil
}

// remoteTarget is the issue's: at most 1.5 times the plain checkout's server CPU under either.
func (r RemoteReport) target(db string) target {
	ratio := func(f RemoteFigure) float64 {
		if r.Plain.CPUms == 0 {
			return 0
		}
		return f.CPUms / r.Plain.CPUms
	}
	rr, ro := ratio(r.RSA), ratio(r.Overrides)
	ok := rr > 0 && ro > 0 && rr <= 1.5 && ro <= 1.5 && r.Plain.Errors+r.RSA.Errors+r.Overrides.Errors == 0 && r.BadSignatures == 0 &&
		r.RSA.RemoteCalls > 0 && r.Overrides.RemoteCalls > 0
	return target{db + ": a guest checkout under an RSA, and under all five overrides, at most 1.5× the server CPU of a plain one",
		ok, fmt.Sprintf("RSA %.2f×, overrides %.2f× (%.1f / %.1f / %.1f ms)", rr, ro, r.RSA.CPUms, r.Overrides.CPUms, r.Plain.CPUms), false}
}

func (r RemoteReport) markdown(w func(string, ...any)) {
	w("\n### Remote state authority and API overrides: guest checkouts at %d shoppers, remotes answering at once\n\n", r.Shoppers)
	w("| Configuration | Checkouts/s | Server CPU per checkout | × plain | Remote calls per checkout | p99 | Errors |\n|---|---|---|---|---|---|---|\n")
	for _, x := range []struct {
		name string
		f    RemoteFigure
	}{{"neither (plain)", r.Plain}, {"remote state authority", r.RSA}, {"all five API overrides", r.Overrides}} {
		times := 0.0
		if r.Plain.CPUms > 0 {
			times = x.f.CPUms / r.Plain.CPUms
		}
		w("| %s | %.0f | %.2f ms | %.2f | %.1f | %.0f ms | %d |\n", x.name, x.f.PerSecond, x.f.CPUms, times, x.f.CallsPerFlow, x.f.P99, x.f.Errors)
	}
	w("\nThe remotes are httptest servers in the bench's process that check every signature (%d refused). Each configuration runs the same flow on the same shop, the three taking %d turns each, so that a change of the machine's load weighs on all three alike.\n\n", r.BadSignatures, remoteRounds)
}
