package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/valyala/fasthttp"
)

// client calls one checkoutd with keep-alive connections enough for the concurrency used. It
// speaks HTTP through fasthttp's client, which costs a fraction of the CPU of net/http's: the
// load generator shares the machine's cores with the server it measures.
type client struct {
	base  string
	shop  string
	token string
	http  *fasthttp.Client
}

func newClient(base, shop, token string, conns int) *client {
	return &client{base: base, shop: shop, token: token, http: &fasthttp.Client{
		MaxConnsPerHost: conns * 2, MaxIdleConnDuration: time.Minute, ReadTimeout: 30 * time.Second, WriteTimeout: 30 * time.Second,
		// checkoutd's answers are JSON of a few kilobytes; init's carries the 160 KB country list.
		ReadBufferSize: 16 << 10}}
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

// bodyBuffers hold answers the load generator reads only to find a field or an error in.
var bodyBuffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

func (c *client) call(method, path, bearer string, body any, header map[string]string) (answer, error) {
	buf := bodyBuffers.Get().(*bytes.Buffer)
	defer bodyBuffers.Put(buf)
	a, err := c.callInto(buf, method, path, bearer, body, header)
	a.raw = bytes.Clone(a.raw)
	return a, err
}

// callInto is call with the answer's body read into buf, valid until buf is reused.
func (c *client) callInto(buf *bytes.Buffer, method, path, bearer string, body any, header map[string]string) (answer, error) {
	req, res := fasthttp.AcquireRequest(), fasthttp.AcquireResponse()
	defer fasthttp.ReleaseRequest(req)
	defer fasthttp.ReleaseResponse(res)
	req.SetRequestURI(c.base + path)
	req.Header.SetMethod(method)
	req.Header.Set("Authorization", "Bearer "+bearer)
	req.Header.SetContentType("application/json")
	for k, v := range header {
		req.Header.Set(k, v)
	}
	if body != nil {
		b, _ := json.Marshal(body)
		req.SetBodyRaw(b)
	}
	if err := c.http.DoTimeout(req, res, 30*time.Second); err != nil {
		return answer{}, fmt.Errorf("%s %s: %w", method, path, err)
	}
	buf.Reset()
	buf.Write(res.Body())
	raw := buf.Bytes()
	a := answer{status: res.StatusCode(), raw: raw}
	if a.status >= 300 {
		return a, fmt.Errorf("%s %s: %d %s", method, path, a.status, truncate(string(raw), 300))
	}
	return a, nil
}

// lastStringField is the value of the last "key":"value" member in raw, for values with no
// escapes (tokens and ids), or "" when there is none.
func lastStringField(raw []byte, key string) string {
	marker := []byte(`"` + key + `":"`)
	i := bytes.LastIndex(raw, marker)
	if i < 0 {
		return ""
	}
	v := raw[i+len(marker):]
	end := bytes.IndexAny(v, `"\`)
	if end < 0 || v[end] != '"' {
		return ""
	}
	return string(v[:end])
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
	buf := bodyBuffers.Get().(*bytes.Buffer)
	defer bodyBuffers.Put(buf)
	a, err := timed(func() (answer, error) {
		return c.callInto(buf, "POST", "/checkout/orders/"+c.shop+"/init", c.token, map[string]any{"cart_items": []map[string]any{
			{"sku": "BENCH-1", "title": "Bench mug", "price": 1500, "quantity": 2, "line_item_key": "mug"}}}, nil)
	})
	if err != nil {
		return nil, "", err
	}
	// The answer carries the 160 KB country list first; decoding all of it for two strings
	// would spend the CPU the server shares with this load generator.
	jwt, id := lastStringField(a.raw, "jwt_token"), lastStringField(a.raw, "public_order_id")
	if jwt == "" || id == "" {
		return nil, "", fmt.Errorf("init answer without jwt_token or public_order_id: %s", truncate(string(a.raw), 300))
	}
	sf := "/checkout/storefront/" + c.shop + "/" + id
	steps := []func() (answer, error){
		func() (answer, error) {
			return c.callInto(buf, "POST", sf+"/customer/guest", jwt, map[string]any{"first_name": "Ada", "last_name": "Lovelace", "email_address": "ada@example.com"}, nil)
		},
		func() (answer, error) {
			return c.callInto(buf, "POST", sf+"/addresses/shipping", jwt, benchAddress, nil)
		},
		func() (answer, error) {
			return c.callInto(buf, "POST", sf+"/addresses/billing", jwt, benchAddress, nil)
		},
		func() (answer, error) {
			if _, err := c.callInto(buf, "GET", sf+"/shipping_lines", jwt, nil, nil); err != nil {
				return answer{}, err
			}
			return c.callInto(buf, "POST", sf+"/shipping_lines", jwt, map[string]any{"index": "0"}, nil)
		},
		func() (answer, error) { return c.callInto(buf, "POST", sf+"/taxes", jwt, nil, nil) },
		func() (answer, error) {
			return c.callInto(buf, "POST", sf+"/payments", jwt, map[string]any{"gateway_public_id": gatewayID, "token": "tok_bench", "type": "credit_card", "display_string": "Visa 4242"}, nil)
		},
		func() (answer, error) { return c.callInto(buf, "POST", sf+"/process_order", jwt, nil, nil) },
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
