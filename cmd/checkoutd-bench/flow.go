package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sync"
	"time"
)

// client calls one checkoutd with keep-alive connections enough for the concurrency used.
type client struct {
	base  string
	shop  string
	token string
	http  *http.Client
}

func newClient(base, shop, token string, conns int) *client {
	t := &http.Transport{MaxIdleConns: conns * 2, MaxIdleConnsPerHost: conns * 2, IdleConnTimeout: time.Minute}
	return &client{base: base, shop: shop, token: token, http: &http.Client{Transport: t, Timeout: 30 * time.Second}}
}

// answer is one HTTP answer; its JSON is decoded only when asked for, so that the load
// generator, which shares the machine with the server, spends its CPU on sending load.
type answer struct {
	status int
	raw    []byte
}

func (a answer) body() map[string]any {
	var m map[string]any
	_ = json.Unmarshal(a.raw, &m)
	return m
}

func (c *client) call(method, path, bearer string, body any, header map[string]string) (answer, error) {
	var rdr io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rdr = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, c.base+path, rdr)
	if err != nil {
		return answer{}, err
	}
	req.Header.Set("Authorization", "Bearer "+bearer)
	req.Header.Set("Content-Type", "application/json")
	for k, v := range header {
		req.Header.Set(k, v)
	}
	res, err := c.http.Do(req)
	if err != nil {
		return answer{}, err
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	if err != nil {
		return answer{}, err
	}
	a := answer{status: res.StatusCode, raw: raw}
	if res.StatusCode >= 300 {
		return a, fmt.Errorf("%s %s: %d %s", method, path, res.StatusCode, truncate(string(raw), 300))
	}
	return a, nil
}

func truncate(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

func dataOf(a answer) map[string]any {
	d, _ := a.body()["data"].(map[string]any)
	return d
}

// The steps of one guest checkout, in order.
var flowSteps = []string{"init", "customer", "shipping_address", "billing_address", "shipping_line", "taxes", "payment", "process_order"}

var benchAddress = map[string]any{"first_name": "Ada", "last_name": "Lovelace", "address_line_1": "1 Main St", "city": "Albany",
	"country_code": "US", "province_code": "NY", "postal_code": "12207"}

// guestCheckout runs one whole guest checkout and reports each step's latency.
func (c *client) guestCheckout(gatewayID string) ([]time.Duration, string, error) {
	lat := make([]time.Duration, 0, len(flowSteps))
	timed := func(fn func() (answer, error)) (answer, error) {
		start := time.Now()
		a, err := fn()
		lat = append(lat, time.Since(start))
		return a, err
	}
	a, err := timed(func() (answer, error) {
		return c.call("POST", "/checkout/orders/"+c.shop+"/init", c.token, map[string]any{"cart_items": []map[string]any{
			{"sku": "BENCH-1", "title": "Bench mug", "price": 1500, "quantity": 2, "line_item_key": "mug"}}}, nil)
	})
	if err != nil {
		return nil, "", err
	}
	var init struct {
		Data struct {
			JWT           string `json:"jwt_token"`
			PublicOrderID string `json:"public_order_id"`
		} `json:"data"`
	}
	if err := json.Unmarshal(a.raw, &init); err != nil {
		return nil, "", err
	}
	jwt, id := init.Data.JWT, init.Data.PublicOrderID
	sf := "/checkout/storefront/" + c.shop + "/" + id
	steps := []func() (answer, error){
		func() (answer, error) {
			return c.call("POST", sf+"/customer/guest", jwt, map[string]any{"first_name": "Ada", "last_name": "Lovelace", "email_address": "ada@example.com"}, nil)
		},
		func() (answer, error) { return c.call("POST", sf+"/addresses/shipping", jwt, benchAddress, nil) },
		func() (answer, error) { return c.call("POST", sf+"/addresses/billing", jwt, benchAddress, nil) },
		func() (answer, error) {
			if _, err := c.call("GET", sf+"/shipping_lines", jwt, nil, nil); err != nil {
				return answer{}, err
			}
			return c.call("POST", sf+"/shipping_lines", jwt, map[string]any{"index": "0"}, nil)
		},
		func() (answer, error) { return c.call("POST", sf+"/taxes", jwt, nil, nil) },
		func() (answer, error) {
			return c.call("POST", sf+"/payments", jwt, map[string]any{"gateway_public_id": gatewayID, "token": "tok_bench", "type": "credit_card", "display_string": "Visa 4242"}, nil)
		},
		func() (answer, error) { return c.call("POST", sf+"/process_order", jwt, nil, nil) },
	}
	for _, step := range steps {
		if _, err := timed(step); err != nil {
			return nil, id, err
		}
	}
	return lat, id, nil
}

// loadResult is one timed run of concurrent workers.
type loadResult struct {
	Concurrency int
	Elapsed     time.Duration
	Done        int
	Errors      int
	FirstError  string
	Flow        []time.Duration
	Steps       map[string][]time.Duration
	ServerCPU   time.Duration
	// WriteTxSeconds is the time the server's write transactions held a connection meanwhile.
	WriteTxSeconds float64
}

// runLoad keeps `concurrency` workers running `work` for d.
func runLoad(concurrency int, d time.Duration, srv *server, work func() ([]time.Duration, error)) loadResult {
	res := loadResult{Concurrency: concurrency, Steps: map[string][]time.Duration{}}
	var mu sync.Mutex
	var wg sync.WaitGroup
	cpu0, write0 := srv.cpu(), srv.writeSeconds()
	start := time.Now()
	deadline := start.Add(d)
	for range concurrency {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for time.Now().Before(deadline) {
				began := time.Now()
				steps, err := work()
				took := time.Since(began)
				mu.Lock()
				if err != nil {
					res.Errors++
					if res.FirstError == "" {
						res.FirstError = err.Error()
					}
				} else {
					res.Done++
					res.Flow = append(res.Flow, took)
					for i, s := range steps {
						name := "request"
						if len(steps) == len(flowSteps) {
							name = flowSteps[i]
						}
						res.Steps[name] = append(res.Steps[name], s)
					}
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	res.Elapsed = time.Since(start)
	res.ServerCPU = srv.cpu() - cpu0
	res.WriteTxSeconds = srv.writeSeconds() - write0
	return res
}

func (r loadResult) perSecond() float64 { return float64(r.Done) / r.Elapsed.Seconds() }
