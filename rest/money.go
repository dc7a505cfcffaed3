package rest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"

	"github.com/checkoutd/checkoutd/service"
)

func (a *API) registerMoney(mux *http.ServeMux) {
	const backend = "/checkout/orders/{shop}/{order}"
	captures := map[string]func(r *http.Request) service.CaptureScope{
		"/payments/capture":                      func(*http.Request) service.CaptureScope { return service.CaptureScope{} },
		"/payments/capture/full":                 func(*http.Request) service.CaptureScope { return service.CaptureScope{Full: true} },
		"/payments/capture/payment/{payment_id}": paymentScope,
	}
	for suffix, scope := range captures {
		mux.Handle("POST "+backend+suffix, a.withBackendOrder(a.capture(scope)))
	}
	refunds := map[string]func(r *http.Request) service.CaptureScope{
		"/refunds":                      func(*http.Request) service.CaptureScope { return service.CaptureScope{} },
		"/refunds/full":                 func(*http.Request) service.CaptureScope { return service.CaptureScope{Full: true} },
		"/refunds/payment/{payment_id}": paymentScope,
	}
	for suffix, scope := range refunds {
		mux.Handle("POST "+backend+suffix, a.withBackendOrder(a.refund(scope)))
	}
	mux.Handle("POST "+backend+"/cancel", a.withBackendOrder(a.cancel))
}

func paymentScope(r *http.Request) service.CaptureScope {
	return service.CaptureScope{PaymentID: r.PathValue("payment_id")}
}

// moneyCall is one money-moving call: its status and data, or a service error.
type moneyCall func(ctx context.Context, operationKey string) (int, any, error)

// idempotent runs a money-moving call under the caller's Idempotency-Key header or
// idempotent_key body field, so that a repeat replays the first answer byte for byte.
func (a *API) idempotent(w http.ResponseWriter, r *http.Request, sess *service.OrderSession, body []byte, call moneyCall) {
	key := r.Header.Get("Idempotency-Key")
	if key == "" {
		var k struct {
			IdempotentKey string `json:"idempotent_key"`
		}
		_ = json.Unmarshal(body, &k)
		key = k.IdempotentKey
	}
	request := append([]byte(r.Method+" "+r.URL.Path+"\n"), body...)
	res, err := a.svc.Idempotent(r.Context(), sess.Shop, key, request, func(ctx context.Context, operationKey string) service.Response {
		rec := httptest.NewRecorder()
		status, data, err := call(ctx, operationKey)
		if err != nil {
			writeError(rec, r, err)
		} else {
			writeJSON(rec, status, map[string]any{"data": data})
		}
		return service.Response{Status: rec.Code, Body: rec.Body.Bytes()}
	})
	if err != nil {
		writeError(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(res.Status)
	_, _ = w.Write(res.Body)
}

// readBody reads the raw body (for the idempotency check) and decodes it into v.
func readBody(r *http.Request, v any) ([]byte, error) {
	raw, err := io.ReadAll(r.Body)
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			return nil, errBodyTooLarge
		}
		return nil, badRequest("could not read request body")
	}
	r.Body = io.NopCloser(bytes.NewReader(raw))
	return raw, decode(r, v)
}

func (a *API) capture(scope func(*http.Request) service.CaptureScope) orderHandler {
	return func(w http.ResponseWriter, r *http.Request, sess *service.OrderSession) {
		var in service.CaptureInput
		raw, err := readBody(r, &in)
		if err != nil {
			writeError(w, r, err)
			return
		}
		a.idempotent(w, r, sess, raw, func(ctx context.Context, operationKey string) (int, any, error) {
			res, err := a.svc.Capture(ctx, sess, scope(r), in, operationKey)
			if err != nil {
				return 0, nil, err
			}
			if res.Pending {
				return http.StatusAccepted, res, nil
			}
			return http.StatusOK, res, nil
		})
	}
}

func (a *API) refund(scope func(*http.Request) service.CaptureScope) orderHandler {
	return func(w http.ResponseWriter, r *http.Request, sess *service.OrderSession) {
		var in service.RefundInput
		raw, err := readBody(r, &in)
		if err != nil {
			writeError(w, r, err)
			return
		}
		a.idempotent(w, r, sess, raw, func(ctx context.Context, operationKey string) (int, any, error) {
			res, err := a.svc.Refund(ctx, sess, scope(r), in, operationKey)
			if err != nil {
				return 0, nil, err
			}
			return refundStatus(res), res, nil
		})
	}
}

// refundStatus is 207 when some refunds succeeded and others failed, 202 while one is unsettled.
func refundStatus(res *service.RefundResult) int {
	switch {
	case res.Pending:
		return http.StatusAccepted
	case res.Partial:
		return http.StatusMultiStatus
	}
	return http.StatusOK
}

func (a *API) cancel(w http.ResponseWriter, r *http.Request, sess *service.OrderSession) {
	var in service.CancelInput
	raw, err := readBody(r, &in)
	if err != nil {
		writeError(w, r, err)
		return
	}
	a.idempotent(w, r, sess, raw, func(ctx context.Context, operationKey string) (int, any, error) {
		res, err := a.svc.CancelOrder(ctx, sess, in, operationKey)
		if err != nil {
			return 0, nil, err
		}
		return http.StatusOK, map[string]any{"application_state": res.View.State(), "voids": res.Voids, "refund": res.Refund}, nil
	})
}
