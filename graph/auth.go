package graph

import (
	"context"
	"net/http"
	"strings"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/service"
)

type shopKey struct{}

// WithShop authenticates the bearer access token and puts its shop in the request context.
// An unauthenticated request still reaches GraphQL, where every field then refuses it.
func WithShop(svc *service.Service, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := r.Header.Get("Authorization")
		if len(h) > 7 && strings.EqualFold(h[:7], "bearer ") {
			if sh, err := svc.ShopForToken(r.Context(), strings.TrimSpace(h[7:])); err == nil {
				r = r.WithContext(context.WithValue(r.Context(), shopKey{}, sh))
			}
		}
		next.ServeHTTP(w, r)
	})
}

func shopFrom(ctx context.Context) (*ent.Shop, error) {
	sh, ok := ctx.Value(shopKey{}).(*ent.Shop)
	if !ok {
		return nil, service.ErrUnauthorized
	}
	return sh, nil
}
