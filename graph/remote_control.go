package graph

import (
	"context"
	"sync"

	"entgo.io/contrib/entgql"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/service"
	"github.com/checkoutd/checkoutd/service/shops"
)

// remoteControlMemo is one request's read of the shop's remote control: every order a request
// reaches is of the caller's shop, so a page of orders asking for remoteControl reads it once.
type remoteControlMemo struct {
	once sync.Once
	rc   shops.RemoteControl
	err  error
}

// remoteControlOf is the shop's remote control, read once per request.
func remoteControlOf(ctx context.Context, svc *service.Service, sh *ent.Shop) (*shops.RemoteControl, error) {
	l, ok := ctx.Value(loadersKey{}).(*loaders)
	if !ok {
		rc, err := svc.Shops.RemoteControl(ctx, sh)
		return &rc, err
	}
	m := &l.remoteControl
	m.once.Do(func() { m.rc, m.err = svc.Shops.RemoteControl(ctx, sh) })
	rc := m.rc
	return &rc, m.err
}

// RemoteExchangesPage is how many exchanges remoteExchanges answers when neither first nor last
// says: each carries up to 32 KiB of bodies.
const RemoteExchangesPage = 20

// remoteExchangesPage is the page size remoteExchanges is asked for.
func remoteExchangesPage(first, last *int) int {
	switch {
	case first != nil:
		return max(*first, 0)
	case last != nil:
		return max(*last, 0)
	}
	return RemoteExchangesPage
}

// remoteExchangesComplexity counts each exchange of the page asked for, so that MaxComplexity
// bounds how many bodies one query reads: the selection under the connection costs once per
// exchange.
func remoteExchangesComplexity(child int, _ *entgql.Cursor[int], first *int, _ *entgql.Cursor[int], last *int, _ *string, _ *string, _ *ent.RemoteExchangeOrder) int {
	n := min(remoteExchangesPage(first, last), MaxComplexity)
	return 1 + child*max(n, 1)
}
